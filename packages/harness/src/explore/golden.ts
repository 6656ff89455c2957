// A difference explore found, as a golden case ready for conformance/cases: the transcript's
// steps with the model's expectations, its task key derived from the case id (every case writes
// its own task), and the requirement ids a generated case of its kind names
// (scripts/cases/requirements.ts): the general operation requirement, those of every case, the
// clock rules when it sets the clock, and every requirement of its page naming a code it expects.
import { createHash } from 'node:crypto';
import type { Case, Step } from '../cases.js';
import { levelOfRequirements, type Requirement } from '../requirements/catalogue.js';
import type { CapabilityExplorer, RunContext } from './command.js';
import type { ProcessEvent, SentStep } from './session.js';

const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

/** A UUIDv8 derived from a case id, as scripts/cases derives the task of each store case. */
export function taskIdOf(caseId: string): string {
  const h = sha256(caseId);
  const variant = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const GENERAL = { digest: 'GEN-005', other: 'GEN-007' };
const EVERY_CASE = ['PROTO-001', 'PROTO-007'];
const CLOCK = ['GEN-004', 'GEN-500', 'PROTO-500'];
/** Requirements named for their codes by scripts/cases/requirements.ts only where it says so. */
const NOT_BY_CODE = new Set(['CAG-502', 'TCW-507', 'ARC-030', 'ARC-031', 'ARC-034']);
/** What every case of a capability checks besides its codes (scripts/cases/requirements.ts EXTRA). */
const BY_CAPABILITY: Readonly<Record<string, readonly string[]>> = {
  store: ['TCW-002'],
  trace: ['LTT-001'],
};

/** The requirement ids of a case and its level, as the case generators compute them. */
export function requirementsOfSteps(
  capability: string,
  spec: string,
  steps: readonly Step[],
  catalogue: readonly Requirement[],
): { requirements: string[]; level: Case['level'] } {
  const ids = new Set<string>([capability === 'digest' ? GENERAL.digest : GENERAL.other, ...EVERY_CASE]);
  for (const id of BY_CAPABILITY[capability] ?? []) ids.add(id);
  if (steps.some((s) => s.method.startsWith('clock.'))) for (const id of CLOCK) ids.add(id);
  const page = spec.split('#')[0];
  for (const s of steps) {
    const code = (s.expect as { error?: string }).error;
    if (!code) continue;
    for (const r of catalogue)
      if (r.page === page && !r.withdrawn && r.codes.includes(code) && !NOT_BY_CODE.has(r.id)) ids.add(r.id);
  }
  const known = new Set(catalogue.map((r) => r.id));
  const requirements = [...ids].filter((id) => known.size === 0 || known.has(id)).sort();
  return { requirements, level: levelOfRequirements(requirements, catalogue) };
}

/** Whether a transcript can be a golden case: one process, no kill or freeze. */
export const singleProcess = (transcript: readonly (SentStep | ProcessEvent)[]): transcript is SentStep[] =>
  transcript.every((t) => !('event' in t) && !t.proc);

/**
 * The golden case of a transcript, or null when it needs several processes (a kill or a freeze:
 * the fault matrix's world, which a golden case cannot stage).
 */
export function goldenCaseOf(
  explorer: CapabilityExplorer,
  transcript: readonly (SentStep | ProcessEvent)[],
  ctx: RunContext,
  seed: number,
  catalogue: readonly Requirement[],
  title: string,
): Case | null {
  if (!singleProcess(transcript)) return null;
  const steps = transcript.map(({ proc: _proc, ...s }) => s);
  const hash = sha256(JSON.stringify(steps)).slice(0, 10);
  const id = `explore/${explorer.name}/seed-${seed}-${hash}`;
  const text = JSON.stringify(steps)
    .split(ctx.taskId)
    .join(taskIdOf(id))
    .split(ctx.runId)
    .join(`run-${hash}`);
  const rewritten = JSON.parse(text) as Step[];
  const requires = [...explorer.requires];
  if (rewritten.some((s) => s.method.startsWith('clock.')) && !requires.includes('clock'))
    requires.push('clock');
  return {
    id,
    title,
    gate: explorer.gate,
    subject: explorer.subject,
    spec: explorer.spec,
    ...requirementsOfSteps(explorer.name, explorer.spec, rewritten, catalogue),
    requires,
    steps: rewritten,
  };
}
