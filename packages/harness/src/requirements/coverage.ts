// Which cases and fault scenarios test each requirement (docs/coverage.md), and what the
// catalogue check refuses: a case naming an id the catalogue lacks, a MUST that nothing tests and
// that the reviewed list of untestable requirements does not explain, and a stale entry of that
// list. Also the per-gate coverage of one run, for the `conform` summary and the HTML report.
import type { Requirement } from './catalogue.js';

/** An entry of conformance/requirements-untestable.json: a MUST no black-box case can observe. */
export interface UntestableRequirement {
  readonly id: string;
  /** Why a harness that sees only the protocol cannot observe it. */
  readonly reason: string;
}

/** Something that names requirements: a golden case or a fault scenario. */
export interface RequirementCiter {
  readonly id: string;
  /** The gate whose page specifies what it checks; it must name a requirement of that page. */
  readonly gate?: string;
  readonly requirements: readonly string[];
}

/** The gates whose requirements hold for every gate (the conventions and the protocol): generic. */
const GENERIC_GATES: ReadonlySet<string> = new Set(['Conventions', 'Protocol']);

/** One requirement with what tests it. */
export interface CoverageRow {
  readonly requirement: Requirement;
  readonly cases: readonly string[];
  readonly scenarios: readonly string[];
  /** Its reason when it is in the reviewed untestable list. */
  readonly untestable: string | null;
}

/** The coverage of the catalogue by the corpus, and every problem the check fails on. */
export function coverageOf(
  catalogue: readonly Requirement[],
  cases: readonly RequirementCiter[],
  scenarios: readonly RequirementCiter[],
  untestable: readonly UntestableRequirement[],
): { rows: CoverageRow[]; problems: string[] } {
  const problems: string[] = [];
  const byId = new Map(catalogue.map((r) => [r.id, r]));
  const citedBy = (list: readonly RequirementCiter[], what: string) => {
    const m = new Map<string, string[]>();
    for (const c of list)
      for (const id of c.requirements) {
        const r = byId.get(id);
        if (!r) problems.push(`${what} ${c.id} names ${id}, which no page of the catalogue defines`);
        else if (r.withdrawn) problems.push(`${what} ${c.id} names ${id}, which is withdrawn`);
        m.set(id, [...(m.get(id) ?? []), c.id]);
      }
    return m;
  };
  // Every case and scenario says what it tests in its own gate's words: at least one requirement
  // of its gate's page. A gate without a page of its own (the digests, specified on the index)
  // has only the generic ones.
  const gatesWithPages = new Set(catalogue.map((r) => r.gate));
  const ownGate = (list: readonly RequirementCiter[], what: string) => {
    for (const c of list) {
      if (c.gate === undefined || !gatesWithPages.has(c.gate) || GENERIC_GATES.has(c.gate)) continue;
      const known = c.requirements.map((id) => byId.get(id)).filter((r): r is Requirement => r !== undefined);
      if (known.some((r) => r.gate === c.gate)) continue;
      const generic = known.length > 0 && known.every((r) => GENERIC_GATES.has(r.gate));
      problems.push(
        `${what} ${c.id} names no requirement of its gate ${c.gate}${generic ? `, only generic ones (${c.requirements.join(', ')})` : ` (only ${c.requirements.join(', ') || 'none'})`}: name one of the gate's page, or write the sentence it tests there (\`pnpm requirements:assign\`)`,
      );
    }
  };
  ownGate(cases, 'case');
  ownGate(scenarios, 'scenario');
  const caseMap = citedBy(cases, 'case');
  const scenarioMap = citedBy(scenarios, 'scenario');
  const reasons = new Map<string, string>();
  for (const u of untestable) {
    const r = byId.get(u.id);
    if (!r) problems.push(`requirements-untestable.json lists ${u.id}, which no page defines`);
    else if (r.level !== 'MUST')
      problems.push(`requirements-untestable.json lists ${u.id}, which is not a MUST`);
    if (typeof u.reason !== 'string' || u.reason.trim().length < 20)
      problems.push(
        `requirements-untestable.json: ${u.id} needs a reason (why a black-box harness cannot observe it)`,
      );
    if (reasons.has(u.id)) problems.push(`requirements-untestable.json lists ${u.id} twice`);
    reasons.set(u.id, u.reason);
  }
  const rows: CoverageRow[] = [];
  for (const r of catalogue) {
    const c = caseMap.get(r.id) ?? [];
    const s = scenarioMap.get(r.id) ?? [];
    const reason = reasons.get(r.id) ?? null;
    if (!r.withdrawn && r.level === 'MUST' && !c.length && !s.length && reason === null)
      problems.push(
        `${r.id} (${r.page}#${r.anchor}) is a MUST that no case or scenario tests: write a case, or list it in conformance/requirements-untestable.json with the reason a black-box harness cannot observe it`,
      );
    if (reason !== null && (c.length || s.length))
      problems.push(
        `requirements-untestable.json lists ${r.id}, but ${[...c, ...s][0]} tests it: remove the entry`,
      );
    rows.push({ requirement: r, cases: c, scenarios: s, untestable: reason });
  }
  return { rows, problems };
}

/** Requirements of one gate tested by what passed in a run, of all its requirements. */
export interface GateCoverage {
  readonly gate: string;
  readonly tested: number;
  readonly total: number;
}

/**
 * Per gate (in catalogue order): how many of its requirements a case or scenario that ran and
 * passed names, of how many it has. Withdrawn requirements count for nothing.
 */
export function runCoverage(
  catalogue: readonly Requirement[],
  results: ReadonlyArray<{ readonly requirements?: readonly string[]; readonly outcome: string }>,
): GateCoverage[] {
  const passed = new Set<string>();
  for (const r of results) if (r.outcome === 'pass') for (const id of r.requirements ?? []) passed.add(id);
  const gates = new Map<string, { tested: number; total: number }>();
  for (const r of catalogue) {
    if (r.withdrawn) continue;
    const g = gates.get(r.gate) ?? { tested: 0, total: 0 };
    g.total++;
    if (passed.has(r.id)) g.tested++;
    gates.set(r.gate, g);
  }
  return [...gates].map(([gate, g]) => ({ gate, ...g }));
}
