// Which requirements of the catalogue (docs/spec, docs/protocol.md) a generated case checks, and
// so its level. A case names:
// - the general requirement of its kind: GEN-006 for a validation case (a validator accepts
//   exactly what meets the schema and the page's invariants), GEN-007 for a store or engine case
//   (an operation refuses what the page refuses, with its code, and answers what it allows),
//   GEN-005 for a digest vector;
// - every requirement of its page whose sentence names a code the case expects (an issue or a
//   refusal), GEN-002 / GEN-003 for closed objects and unknown `schemaVersion`s, the schema
//   failure rules for any `SCHEMA_*` code, and the clock rules when it sets the clock;
// - the requirements listed for its id in EXTRA: behaviours a sentence states without a code.
// The level is the strongest level among them (D-GEN-41).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildCatalogue,
  type Case,
  levelOfRequirements,
  REQUIREMENT_PAGES,
  type Requirement,
} from '@agent-contracts/harness';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const built = buildCatalogue(
  REQUIREMENT_PAGES.map((p) => ({ page: p.page, text: readFileSync(join(repo, p.page), 'utf8') })),
);
if (built.problems.length) {
  console.error(built.problems.join('\n'));
  throw new Error('cases: the requirement catalogue is incomplete; run `pnpm requirements:assign`');
}
/** The catalogue as the pages state it now. */
export const CATALOGUE: readonly Requirement[] = built.requirements.filter((r) => !r.withdrawn);

/** The general requirement of each kind of case. */
export type CaseKind = 'validation' | 'operation' | 'digest';
const GENERAL: Readonly<Record<CaseKind, string>> = {
  validation: 'GEN-006',
  operation: 'GEN-007',
  digest: 'GEN-005',
};

const BY_CODE: Readonly<Record<string, readonly string[]>> = {
  SCHEMA_ADDITIONAL_PROPERTY: ['GEN-002'],
  SCHEMA_VERSION_UNKNOWN: ['GEN-003'],
  SCHEMA_VERSION_MISSING: ['GEN-003'],
  // Validators recompute the stated verdict and refuse a mismatch.
  CAPABILITY_VERDICT_MISMATCH: ['ACD-003'],
  // A referenced contract's gate must be one the field allows.
  ARCH_CONTRACT_REF_GATE_MISMATCH: ['ARC-005'],
  // A capability aspect without direct evidence, or taken from a declaration, name or look-alike, stays unverified.
  CAPABILITY_SURFACE_NOT_DIRECT: ['ARC-018'],
  CAPABILITY_SURFACE_INFERRED: ['ARC-018'],
  // A failing anyOf is reported as the combining keyword at the value.
  SCHEMA_ANY_OF: ['GEN-009'],
  // The tool and human boundaries pass the gate only together: each bundle rule refuses a pair
  // whose documents are valid on their own.
  HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH: ['TPB-001'],
  HUMAN_LOOP_OPERATION_UNKNOWN: ['TPB-001'],
  HUMAN_LOOP_OPERATION_UNCOVERED: ['TPB-001'],
  HUMAN_LOOP_AUTO_WAIVES_NON_WAIVABLE: ['TPB-001'],
  HUMAN_LOOP_CONFIRMATION_WEAKER_THAN_TOOL: ['TPB-001'],
  // A run on other versions than the report states is a figure without its versions.
  EVALUATION_RUN_VERSIONS_MISMATCH: ['EVL-001'],
  // Only verified runs count as successes.
  EVALUATION_UNVERIFIED_SUCCESS_COUNTED: ['EVL-002'],
};

/**
 * Checked by every case that expects a schema code (`SCHEMA_` plus the keyword): the code is
 * named for the keyword (GEN-501) at the path of its instance (GEN-502), and a gate's
 * `schema`-layer code does not take its place (GEN-010; the case sees that the `SCHEMA_*` code
 * is reported, not that no other code is).
 */
const SCHEMA_CODE = ['GEN-501', 'GEN-502', 'GEN-010'];

/**
 * Checked by every case that sets the clock: the implementation takes time from the injectable
 * clock (GEN-004), and its `clock.*` results and the timestamps it reads from the clock or
 * computes are compared as strings in the canonical form (GEN-500, PROTO-500).
 */
const CLOCK = ['GEN-004', 'GEN-500', 'PROTO-500', 'PROTO-722'];

/**
 * Checked by every case that expects a refusal: it is a -32000 error whose `data.code` is the
 * spec's code (PROTO-003) and whose `data` has no member its schema does not list (PROTO-720);
 * a trace refusal's `data.step` is the page's label of the check that refused (PROTO-721).
 */
const REFUSAL = ['PROTO-003', 'PROTO-720'];
const TRACE_REFUSAL = ['PROTO-721'];

/**
 * Requirements whose sentence names a code without a case that expects it checking the sentence:
 * CAG-502 names `CONTEXT_RECEIPT_SCOPE_DRIFT` as the `lastError` an engine writes with the stale
 * escalation; the bundle case expecting the code checks invariant 22 of the validator, and the
 * context scenarios that drive a stale transition (context/receipt/attempt-*) name it themselves. TCW-507 names the codes of malformed members, which also refuse
 * well-formed requests the tables refuse (and validators use them for envelope sequences); the
 * cases that send malformed members name it below. ARC-030, ARC-031 and ARC-034 state V2's
 * use of codes the V1 report shares; the V2 cases name them below, so V1 cases do not. CAG-027
 * names `CONTEXT_PLAN_INVALID`, the code of every malformed plan input and document, for a bad
 * `cacheArtifacts` name; the two context/plan/cache-* cases name it themselves.
 */
const NOT_BY_CODE: ReadonlySet<string> = new Set([
  'CAG-502',
  'CAG-027',
  'TCW-507',
  'ARC-030',
  'ARC-031',
  'ARC-034',
]);

/**
 * Requirements a case checks beyond its general one and its codes, by case id (an exact id, or a
 * prefix ending in `/` or `-`). Each entry is a behaviour the named sentence states and the case observes.
 */
const EXTRA: ReadonlyArray<readonly [string, readonly string[]]> = [
  // A store case drives the store operations the page requires.
  ['store/', ['TCW-002']],
  ['store/receipts/', ['TCW-018']],
  // What a request may not hold, a malformed owner ref, replays of an event with another state,
  // the order of the evidence checks, the first envelope's state (D-TCW-56, D-TCW-57).
  ['store/owner/malformed/', ['TCW-526']],
  ['store/fence/owner-ref-malformed/', ['TCW-521']],
  ['store/operation/malformed/effect-after-the-fence', ['TCW-501']],
  ['store/operation/replayed-prepare-with-another-state', ['TCW-522']],
  ['store/terminal/evidence-order/', ['TCW-523']],
  // Terminal evidence resolves against the conformance project root (docs/protocol.md).
  ['store/terminal/', ['PROTO-723']],
  ['store/owner/row/terminal', ['PROTO-723']],
  // Supplied actions belong to decision-table row 1 (D-TLR-56).
  ['checkpoint/CheckpointValidationResultV1/row1-blocked-supplied-actions', ['TLR-520']],
  ['checkpoint/CheckpointValidationResultV1/row2-supplied-actions-ignored', ['TLR-520']],
  ['checkpoint/CheckpointValidationResultV1/row3-supplied-actions-ignored', ['TLR-520']],
  ['checkpoint/CheckpointValidationResultV1/row4-supplied-actions-ignored', ['TLR-520']],
  // A sidecar read and a host-native status read carry UnknownHostEvent (D-TLR-57).
  ['checkpoint/CheckpointValidationResultV1/inconsistent-sidecar-observation-stop', ['TLR-521']],
  ['checkpoint/CheckpointValidationResultV1/inconsistent-host-native-terminal-status-stop', ['TLR-521']],
  ['validate/CheckpointValidationResultV1/invalid/sidecar-observation-not-unknown-host-event', ['TLR-521']],
  ['validate/CheckpointValidationResultV1/invalid/host-native-status-not-unknown-host-event', ['TLR-521']],
  ['store/owner/row/acquire', ['TCW-524']],
  // A 16 KiB state is kept whole: no per-turn capacity limit is applied to a task.
  ['store/fence/large-state-kept-whole', ['TCW-003', 'TCW-506']],
  // The first envelope has writerGeneration 1 (the acquire delta), and each row moves it by its delta.
  ['store/owner/row/acquire', ['TCW-500']],
  ['store/fence/generation-changes-only-with-owner-transitions', ['TCW-500']],
  // Operation events refused with the code of the first failing check, in the page's order.
  ['store/operation/prepared/', ['TCW-501']],
  ['store/operation/dispatched/', ['TCW-501']],
  ['store/operation/observed/', ['TCW-501']],
  ['store/operation/reconcile-required/', ['TCW-501']],
  ['store/operation/settled/', ['TCW-501']],
  ['store/operation/aborted-zero-effect/', ['TCW-501']],
  ['store/operation/later-generation/', ['TCW-501']],
  ['store/operation/unknown-operation', ['TCW-501']],
  ['store/receipts/observe-with-', ['TCW-501']],
  ['store/receipts/duplicate-dispatch-with-mutated-', ['TCW-501']],
  ['store/receipts/late-observe-after-settle', ['TCW-501']],
  ['store/receipts/settle-with-another-outcome', ['TCW-501']],
  // A reuse of an operationId or idempotencyKey within the window is refused (checks 1 to 4).
  ['store/operation/dispatched/prepare', ['TCW-503']],
  ['store/operation/observed/prepare', ['TCW-503']],
  ['store/operation/reconcile-required/prepare', ['TCW-503']],
  ['store/operation/settled/prepare', ['TCW-503']],
  ['store/operation/aborted-zero-effect/prepare', ['TCW-503']],
  ['store/operation/prepare-while-in-flight', ['TCW-501', 'TCW-503']],
  ['store/operation/prepare-reusing-idempotency-key', ['TCW-501', 'TCW-503']],
  ['store/operation/prepare-conflicting-duplicate', ['TCW-501', 'TCW-503']],
  // A store refuses input that has no RFC 8785 form, so it never writes a document that needs a
  // digest of it.
  ['store/identity/lone-surrogate-', ['GEN-508']],
  ['store/identity/hostile-task-id/lone-surrogate', ['GEN-508']],
  // A value of a neighbouring layer's terminal vocabulary is refused in this layer's field.
  ['validate/LocalTaskTraceV1/invalid/status-turn-layer-vocabulary', ['GEN-506']],
  ['validate/LocalTaskTraceReplayV1/invalid/status-turn-layer-vocabulary', ['GEN-506']],
  ['validate/WorkflowTaskTerminalReceiptV1/invalid/terminal-status-interrupted', ['GEN-506']],
  ['trace/LocalTaskTraceV1/append/refused-invalid-stored/status-turn-layer-vocabulary', ['GEN-506']],
  // Malformed members are refused before storage is read, with the code of their request.
  ['store/operation/malformed/', ['TCW-507']],
  ['store/operation/prepare-targets-', ['TCW-507']],
  ['store/identity/lone-surrogate-', ['TCW-507']],
  ['store/identity/malformed-', ['TCW-507']],
  // A report without its versions is refused.
  ['validate/EvaluationReportV1/invalid/versions-missing', ['EVL-001']],
  // A run the model called done is no outcome of its own.
  ['validate/EvaluationReportV1/invalid/run-outcome-model-says-done', ['EVL-002']],
  // A document failing several keywords is reported with each of them.
  ['validate/IntentSeedV1/several-keywords/', ['GEN-008']],
  // Compatibility versions are accepted where the page says so.
  ['validate/ContextReadPlanV1/valid/', ['GEN-001', 'CAG-013']],
  ['validate/ContextReadPlanV1/invalid/', ['CAG-013', 'CAG-014']],
  ['validate/ContextReadPlanV2/invalid/context-full-read-mismatch', ['CAG-007']],
  ['validate/AgentCapabilityDomainMatrixV1/', ['ACD-001']],
  // A route decision names its seed, route, reason and degradation path; a model its sources of truth.
  ['validate/AgentRouteDecisionV1/', ['RTG-001']],
  ['validate/ContextMemoryModelV1/', ['CMS-001']],
  [
    'validate/AiAgentSystemArchitectureReportV1/invalid/capability-entry-copies-preferred-surface',
    ['ARC-002'],
  ],
  [
    'validate/AiAgentSystemArchitectureReportV1/invalid/intent-seed-reference-in-capability-domain-matrix',
    ['ARC-006'],
  ],
  // Capability-surface evidence never carries the central decision's fields.
  ['validate/CapabilitySurfaceEvidenceV1/invalid/copies-preferred-surface', ['ARC-017']],
  ['validate/CapabilitySurfaceEvidenceV1/invalid/aspect-copies-decision-outcome', ['ARC-017']],
  // V1 reports stay readable beside V2; each V2 field references only the contracts it allows.
  ['validate/AiAgentSystemArchitectureReportV1/valid/', ['ARC-026']],
  ['bundle/architecture-report-with-references/valid/', ['ARC-026']],
  ['validate/AiAgentSystemArchitectureReportV2/invalid/evidence-matrix-not-applicable', ['ARC-030']],
  ['validate/AiAgentSystemArchitectureReportV2/invalid/routing-as-prompt-wish', ['ARC-031']],
  [
    'validate/AiAgentSystemArchitectureReportV2/invalid/repair-boundary-evidenced-without-document',
    ['ARC-031'],
  ],
  ['validate/AiAgentSystemArchitectureReportV2/invalid/gate-human-boundary-unverified', ['ARC-034']],
  ['bundle/architecture-report-v2-with-references/', ['ARC-034']],
  ['validate/AiAgentSystemArchitectureReportV2/invalid/read-plan-referenced-as-routing', ['ARC-029']],
  [
    'validate/AiAgentSystemArchitectureReportV2/invalid/tool-boundary-referenced-as-human-boundary',
    ['ARC-029'],
  ],
  ['validate/AiAgentSystemArchitectureReportV2/invalid/copies-preferred-surface', ['ARC-002']],
  ['validate/ContextReadReceiptV1/valid/', ['GEN-001']],
  // An honest unverified design claim is accepted beside verified ones (ROG-010).
  ['validate/EvidenceMatrixV1/valid/coding-agent-replay-and-documents', ['ROG-010']],
  // The accepter, a party other than the executor, makes the independent re-review (RCR-011).
  ['validate/RepairRoleBoundaryV1/valid/high-risk-store-repair-accepted', ['RCR-011']],
  ['validate/TurnLivenessContractV1/invalid/contract-stalled-below-suspect', ['TLR-001']],
  ['validate/TurnLivenessContractV1/invalid/contract-digest-mismatch', ['TLR-003']],
  ['validate/TurnLivenessStateV1/invalid/', ['TLR-006']],
  ['bundle/checkpoint-operation/', ['TLR-015']],
  ['liveness/TurnLivenessStateV1/edge/thresholds-normalised-on-reset', ['TLR-005']],
  ['liveness/TurnLivenessStateV1/refused/turn-key-reused-current', ['TLR-004', 'TLR-007']],
  ['liveness/TurnLivenessStateV1/refused/turn-key-reused-previous', ['TLR-004', 'TLR-007']],
  ['liveness/TurnLivenessStateV1/refused/turn-key-invalid', ['TLR-019']],
  ['liveness/TurnLivenessStateV1/refused/trace-id-invalid', ['TLR-019']],
  ['liveness/TurnLivenessStateV1/rehydrate/', ['TLR-008', 'PROTO-005']],
  // A refused rehydration leaves the invalid state stored; evidence from it is refused.
  ['liveness/TurnLivenessStateV1/rehydrate/invalid/', ['TLR-009']],
  ['liveness/TurnLivenessEvidenceV1/stalled-read-only', ['TLR-012']],
  ['liveness/TurnLivenessStateV1/edge/task-operation-set-digest-copied', ['TLR-500']],
  ['liveness/TurnLivenessStateV1/edge/refused-prompt-copies-task-operation-set-digest', ['TLR-500']],
  ['liveness/TurnRecoveryCardV1/duplicate-recovery', ['TLR-010']],
  ['liveness/TurnRecoveryCardV1/pre-compact-card-once', ['TLR-010']],
  // The trace: strict order, duplicates and anything after the terminal refused, fixed bounds.
  ['trace/LocalTaskTraceV1/', ['LTT-001']],
  ['trace/LocalTaskTraceV1/append/close-failed', ['LTT-003']],
  ['trace/LocalTaskTraceV1/append/close-interrupted', ['LTT-003']],
  ['trace/LocalTaskTraceV1/append/three-event-turn-complete', ['LTT-003']],
  ['trace/LocalTaskTraceV1/append/tool-result-never-closes', ['LTT-003']],
  ['trace/LocalTaskTraceV1/open/next-turn-closes-open-trace-', ['LTT-003']],
  ['trace/LocalTaskTraceV1/bounds/', ['LTT-006']],
  ['trace/LocalTaskTraceV1/append/refused-payload-not-object', ['LTT-007']],
  ['trace/LocalTaskTraceV1/append/refused-payload-array', ['LTT-007']],
  // The replay of each stored invalid trace is compared whole, messages included: a message that
  // copied a payload value would differ.
  ['trace/LocalTaskTraceV1/append/refused-invalid-stored/', ['LTT-009', 'LTT-013', 'LTT-015', 'PROTO-006']],
  ['trace/LocalTaskTraceReplayV1/', ['LTT-014']],
  // A runId or stateDigest that does not recompute is refused.
  ['validate/RunStateV1/invalid/run-id-from-other-task', ['RUN-002']],
  ['validate/RunStateV1/invalid/state-digest-after-edit', ['RUN-002']],
  // A repeated member name is refused, never read first-wins or last-wins.
  ['digest/jcs/jcs-duplicate-member', ['PROTO-804']],
];

/**
 * The requirement of each gate page that a validator accepts exactly what meets its schema and
 * invariants and refuses the rest: named by every validation case of the page, so that each case
 * says what it tests in its own gate's words (requirements:check refuses a case whose
 * requirements are all generic).
 */
const VALIDATOR_OF_PAGE: ReadonlyMap<string, string> = new Map(
  CATALOGUE.filter((r) =>
    r.sentence.startsWith('A validator MUST accept a document of a contract of this page'),
  ).map((r) => [r.page, r.id]),
);

/**
 * Requirements of an operation case by the section its spec link names: the section's own
 * sentence (the liveness classification and state machine, the checkpoint decision table, the
 * fault scenarios the turn-liveness cases replay).
 */
const TLR = 'docs/spec/turn-liveness-recovery-gate.md';
const BY_SECTION: ReadonlyMap<string, readonly string[]> = new Map([
  [`${TLR}#classification`, ['TLR-021']],
  [`${TLR}#state-machine`, ['TLR-022']],
  [`${TLR}#decision-table`, ['TLR-023']],
  [`${TLR}#post-execution-timeout`, ['TLR-021', 'TLR-023']],
  [`${TLR}#no-continuation`, ['TLR-021', 'TLR-022']],
  [`${TLR}#active-lease`, ['TLR-021', 'TLR-022']],
  [`${TLR}#restart-rehydrate`, ['TLR-008', 'TLR-021']],
  [`${TLR}#emission`, ['TLR-010', 'TLR-021']],
  [`${TLR}#turnlivenessevidencev1`, ['TLR-021']],
]);

/** Checked by every case: each step needs one reply with its id, and a declared method to exist. */
const EVERY_CASE = ['PROTO-001', 'PROTO-007'];

/** Every code a case expects: refusal codes and validation issue codes. */
function expectedCodes(c: Pick<Case, 'steps'>): Set<string> {
  const codes = new Set<string>();
  for (const s of c.steps) {
    const e = s.expect as { error?: string; issue?: { code: string } };
    if (e.error) codes.add(e.error);
    if (e.issue) codes.add(e.issue.code);
  }
  return codes;
}

/**
 * The requirement ids a case checks, sorted, and its level. With kind `only`, exactly `extra`:
 * for a case that adds one requirement to a sibling case that checks the rest.
 */
export function requirementsOf(
  c: Pick<Case, 'id' | 'spec' | 'steps'>,
  kind: CaseKind | 'only',
  extra: readonly string[] = [],
): { requirements: string[]; level: Case['level'] } {
  const ids = new Set<string>(extra);
  if (kind === 'only') return finish(c.id, ids);
  for (const id of [GENERAL[kind], ...EVERY_CASE]) ids.add(id);
  // A case that sets the clock and compares what the implementation derives from it.
  if (c.steps.some((s) => s.method.startsWith('clock.'))) for (const id of CLOCK) ids.add(id);
  if (c.steps.some((s) => 'error' in s.expect)) {
    for (const id of REFUSAL) ids.add(id);
    if (c.steps.some((s) => s.method.startsWith('trace.') && 'error' in s.expect))
      for (const id of TRACE_REFUSAL) ids.add(id);
  }
  const page = c.spec.split('#')[0]!;
  if (kind === 'validation' && VALIDATOR_OF_PAGE.has(page)) ids.add(VALIDATOR_OF_PAGE.get(page)!);
  if (kind === 'operation') for (const id of BY_SECTION.get(c.spec) ?? []) ids.add(id);
  for (const code of expectedCodes(c)) {
    if (code.startsWith('SCHEMA_')) for (const id of SCHEMA_CODE) ids.add(id);
    for (const id of BY_CODE[code] ?? []) ids.add(id);
    for (const r of CATALOGUE)
      if (r.page === page && r.codes.includes(code) && !NOT_BY_CODE.has(r.id)) ids.add(r.id);
  }
  for (const [key, list] of EXTRA)
    if (c.id === key || (/[/-]$/.test(key) && c.id.startsWith(key))) for (const id of list) ids.add(id);
  return finish(c.id, ids);
}

function finish(caseId: string, ids: ReadonlySet<string>): { requirements: string[]; level: Case['level'] } {
  for (const id of ids)
    if (!CATALOGUE.some((r) => r.id === id)) throw new Error(`${caseId}: names unknown requirement ${id}`);
  const requirements = [...ids].sort();
  return { requirements, level: levelOfRequirements(requirements, CATALOGUE) };
}
