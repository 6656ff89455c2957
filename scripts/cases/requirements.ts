// Which requirements of the catalogue (docs/spec, docs/protocol.md) a generated case checks, and
// so its level. A case names:
// - the general requirement of its kind: GEN-006 for a validation case (a validator accepts
//   exactly what meets the schema and the page's invariants), GEN-007 for a store or engine case
//   (an operation refuses what the page refuses, with its code, and answers what it allows),
//   GEN-005 for a digest vector;
// - every requirement of its page whose sentence names a code the case expects (an issue or a
//   refusal), and GEN-002 / GEN-003 for closed objects and unknown `schemaVersion`s;
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
};

/**
 * Requirements a case checks beyond its general one and its codes, by case id (an exact id, or a
 * prefix ending in `/` or `-`). Each entry is a behaviour the named sentence states and the case observes.
 */
const EXTRA: ReadonlyArray<readonly [string, readonly string[]]> = [
  // A store case drives the store operations the page requires.
  ['store/', ['TCW-002']],
  ['store/receipts/', ['TCW-018']],
  ['store/fence/large-state-kept-whole', ['TCW-003']],
  // Compatibility versions are accepted where the page says so.
  ['validate/ContextReadPlanV1/valid/', ['GEN-001', 'CAG-013']],
  ['validate/ContextReadPlanV1/invalid/', ['CAG-013', 'CAG-014']],
  ['validate/ContextReadPlanV2/invalid/context-full-read-mismatch', ['CAG-007']],
  ['validate/AgentCapabilityDomainMatrixV1/', ['ACD-001']],
  [
    'validate/AiAgentSystemArchitectureReportV1/invalid/capability-entry-copies-preferred-surface',
    ['ARC-002'],
  ],
  [
    'validate/AiAgentSystemArchitectureReportV1/invalid/intent-seed-reference-in-capability-domain-matrix',
    ['ARC-006'],
  ],
  ['validate/ContextReadReceiptV1/valid/', ['GEN-001']],
  ['validate/TurnLivenessContractV1/invalid/contract-stalled-below-suspect', ['TLR-001']],
  ['validate/TurnLivenessContractV1/invalid/contract-digest-mismatch', ['TLR-003']],
  ['validate/TurnLivenessStateV1/invalid/', ['TLR-006']],
  ['bundle/checkpoint-operation/', ['TLR-015']],
  ['liveness/TurnLivenessStateV1/edge/thresholds-normalised-on-reset', ['TLR-005']],
  ['liveness/TurnLivenessStateV1/refused/turn-key-reused-current', ['TLR-004', 'TLR-007']],
  ['liveness/TurnLivenessStateV1/refused/turn-key-reused-previous', ['TLR-004', 'TLR-007']],
  ['liveness/TurnLivenessStateV1/rehydrate/', ['TLR-008', 'PROTO-005']],
  // A refused rehydration leaves the invalid state stored; evidence from it is refused.
  ['liveness/TurnLivenessStateV1/rehydrate/invalid/', ['TLR-009']],
  ['liveness/TurnLivenessEvidenceV1/stalled-read-only', ['TLR-012']],
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
];

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
  if (c.steps.some((s) => s.method.startsWith('clock.'))) ids.add('GEN-004');
  const page = c.spec.split('#')[0]!;
  for (const code of expectedCodes(c)) {
    for (const id of BY_CODE[code] ?? []) ids.add(id);
    for (const r of CATALOGUE) if (r.page === page && r.codes.includes(code)) ids.add(r.id);
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
