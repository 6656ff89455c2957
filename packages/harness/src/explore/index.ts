// Model-based exploration (`conform --explore`, docs/protocol.md#explore).
export { EXPLORE_T0 } from './command.js';
export {
  CONTEXT_CATALOGUE,
  CONTEXT_MEMORY_REF,
  CONTEXT_ROOT,
  contextCatalogueWith,
  contextCatalogueWithRefs,
  contextDocument,
  contextRef,
} from './context-catalogue.js';
export { agreed, expectationOf, type ModelReply } from './expect.js';
export { goldenCaseOf, requirementsOfSteps, taskIdOf } from './golden.js';
export { contextSnapshot, ModelContext } from './model/context.js';
export { CONFORMANCE_PROJECT } from './model/store.js';
export { ModelRefusedRequest, ModelWorld } from './model/world.js';
export { EXPLORE_CAPABILITY_NAMES, randomSeed } from './names.js';
export {
  EXPLORE_CAPABILITIES,
  EXPLORERS,
  type ExploreOptions,
  type ExploreResult,
  type ExploreTarget,
  explore,
} from './run.js';
export {
  ExploreDefect,
  ExploreDifference,
  type ExploreStep,
  type ProcessEvent,
  type SentStep,
} from './session.js';
export * from './store-requests.js';
