// The shards of the mutation run: one per engine of packages/engines/src (its directory, so that
// a file split or added inside an engine is mutated without naming it), the engines' shared
// files, and the store's commit path. Each shard is one Stryker run with its own report and its
// own incremental file, so that the score is given per engine and a change to one engine re-runs
// only that engine's shard. `mutate` are Stryker's globs (`dir/**/*.ts`, `dir/*.ts` or a file; a
// leading `!` excludes). `cases` are the prefixes of the golden cases that the shard's mutants
// are run against (the cases of the engine's methods and of the contracts and bundles its rules
// judge); every engine unit test is run too, where it covers a mutant. `timeoutMS` (default 3000)
// is how long past its own time a mutant's tests may run before it counts as a timeout: wider for
// the store's cases, which commit to disk. `tests` are test files run besides the engines' unit
// tests (the store's in-process unit tests for the store shard: its corrupt chains, read-back
// mismatches and options are reachable through no golden case).
const TASK_CONTINUITY_CASES = [
  'store/',
  'validate/TaskRecoveryStateV5/',
  'validate/TaskRecoveryCommitFenceV1/',
  'validate/FencedTaskWriteOwnerLeaseV2/',
  'validate/CanonicalTaskWriteContextV1/',
  'validate/TaskOperationRecordV1/',
  'validate/TaskOperationSetV1/',
  'validate/WorkflowTaskTerminalReceiptV1/',
  'bundle/envelope-sequence/',
  'bundle/write-context-readback/',
];
// The store's contract suite on its memory backend: every owner transition through the TaskStore,
// in process, about 10 s of a dry run. Not for the operations shard, whose 855 mutants it would
// keep past an hour on the shared machine.
const STORE_CONTRACT_SUITE = ['packages/store/test/memory.test.ts'];
const OPERATIONS = [
  'packages/engines/src/task-continuity/operation-commit.ts',
  'packages/engines/src/task-continuity/operation-edges.ts',
];
const OWNER = [
  'packages/engines/src/task-continuity/owner-commit.ts',
  'packages/engines/src/task-continuity/owner-transitions.ts',
];

export const SHARDS = {
  delegation: {
    mutate: ['packages/engines/src/delegation/**/*.ts'],
    cases: ['delegation/', 'validate/DelegationContractV1/', 'bundle/delegation-chain/'],
  },
  policy: {
    mutate: ['packages/engines/src/policy/**/*.ts'],
    cases: ['policy/', 'validate/PermissionDecisionV1/'],
  },
  checkpoint: {
    mutate: ['packages/engines/src/checkpoint/**/*.ts'],
    cases: [
      'checkpoint/',
      'validate/CheckpointValidationResultV1/',
      'validate/CheckpointV1/',
      'bundle/checkpoint-operation/',
    ],
  },
  shared: {
    mutate: ['packages/engines/src/*.ts'],
    cases: ['store/', 'liveness/', 'trace/', 'run/'],
  },
  'run-control': {
    mutate: ['packages/engines/src/run-control/**/*.ts'],
    cases: ['run/', 'validate/RunStateV1/'],
  },
  'local-task-trace': {
    mutate: ['packages/engines/src/local-task-trace/**/*.ts'],
    cases: [
      'trace/',
      'validate/LocalTaskTraceV1/',
      'validate/LocalTaskTraceReplayV1/',
      'bundle/trace-replay/',
    ],
  },
  'turn-liveness': {
    mutate: ['packages/engines/src/turn-liveness/**/*.ts'],
    cases: [
      'liveness/',
      'validate/TurnLivenessStateV1/',
      'validate/TurnLivenessEvidenceV1/',
      'validate/TurnRecoveryCardV1/',
      'validate/TurnLivenessContractV1/',
      'bundle/turn-',
    ],
  },
  // The task-continuity engine in three shards, each one Stryker run that fits CI's budget: the
  // operation path and the owner path by their files, the rest of the engine (envelopes, requests,
  // fence, lease, write context, and any file added later) by the directory less those files.
  'task-continuity-commit': {
    mutate: [
      'packages/engines/src/task-continuity/**/*.ts',
      `!${OPERATIONS[0]}`,
      `!${OPERATIONS[1]}`,
      `!${OWNER[0]}`,
      `!${OWNER[1]}`,
    ],
    cases: TASK_CONTINUITY_CASES,
    timeoutMS: 10_000,
  },
  'task-continuity-operations': {
    mutate: OPERATIONS,
    cases: TASK_CONTINUITY_CASES,
    timeoutMS: 10_000,
  },
  'task-continuity-owner': {
    mutate: OWNER,
    cases: TASK_CONTINUITY_CASES,
    tests: STORE_CONTRACT_SUITE,
    timeoutMS: 10_000,
  },
  context: {
    mutate: ['packages/engines/src/context/**/*.ts'],
    cases: ['context/'],
  },
  store: {
    mutate: ['packages/store/src/task-store.ts', 'packages/store/src/evidence.ts'],
    cases: ['store/'],
    // In process and quick (a few seconds together): the contract suite on the memory backend
    // (the TaskStore is the same over every backend; the SQLite run of the suite would double each
    // mutant's time for no other line of the commit path), the evidence files, the lying storage.
    tests: [
      'packages/store/test/memory.test.ts',
      'packages/store/test/open.test.ts',
      'packages/store/test/evidence.test.ts',
      'packages/store/test/evidence-tampered.test.ts',
      'packages/store/test/task-store-tampered.test.ts',
    ],
    timeoutMS: 10_000,
  },
};
