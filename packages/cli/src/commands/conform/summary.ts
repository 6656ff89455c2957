// The summary `conform` prints on stdout: by gate and contract, what did not pass (each distinct
// reason once), what was not applicable only for want of one more capability, and the verdict.
// Every string an implementation controls goes through `printable`.
import {
  type Capabilities,
  type CaseLine,
  countOutcomes,
  type Difference,
  type GateCoverage,
  missingCapabilities,
  printable,
  printableLines,
  type RunLine,
  type SummaryLine,
} from '@agent-contracts/harness';
import { GATES } from '@agent-contracts/schemas';
import type { painter } from '../../color.js';

/** Gates in spec order, then the conventions (digests). */
const GATE_ORDER = [...Object.keys(GATES), 'Digests'];

/** How many "not passing" entries are listed before the rest is only counted. */
const LISTED = 50;
/** From how many items with one reason on they are listed as one entry. */
const GROUPED = 3;

/**
 * The cases and scenarios that were not applicable only because the implementation declares some
 * of what they need but not all: "12 cases that need checkpoint also need clock".
 */
export function capabilityGaps(
  cases: readonly CaseLine[],
  requires: ReadonlyMap<string, readonly string[]>,
  caps: Capabilities | null,
): string[] {
  if (!caps) return [];
  const gaps = new Map<string, { declared: Set<string>; count: number }>();
  for (const c of cases) {
    if (c.outcome !== 'not-applicable') continue;
    const needs = requires.get(c.id) ?? [];
    const missing = missingCapabilities(needs, caps);
    const declared = needs.filter((t) => !missing.includes(t));
    if (!missing.length || !declared.length) continue;
    const key = missing.join(', ');
    const gap = gaps.get(key) ?? { declared: new Set<string>(), count: 0 };
    for (const t of declared) gap.declared.add(t);
    gap.count++;
    gaps.set(key, gap);
  }
  return [...gaps].map(
    ([missing, g]) =>
      `${g.count} ${g.count === 1 ? 'case needs' : 'cases need'} ${[...g.declared].join(', ')}, which the implementation declares, and also ${missing}, which it does not (docs/protocol.md#hello)`,
  );
}

/** A difference as `pointer: expected -> actual`, every part printable. */
const differenceLine = (d: Difference) =>
  `${printable(d.pointer || '(the reply)')}: ${d.keyword !== undefined ? `breaks ${printable(d.schema ?? '')} (${printable(d.keyword)})` : d.expected === undefined ? '(nothing)' : printable(d.expected)} -> ${d.actual === undefined ? '(nothing)' : printable(d.actual)}`;

/** The differences of a case or step, indented under it, and how many more there are. */
function differenceLines(
  differences: readonly Difference[] | undefined,
  more: number | undefined,
  indent: string,
): string[] {
  const out = (differences ?? []).map((d) => `${indent}${differenceLine(d)}`);
  if (more)
    out.push(`${indent}... and ${more} more difference${more === 1 ? '' : 's'} (see the JSONL report)`);
  return out;
}

/**
 * Everything a case line says beyond its headline: the case's title and spec link (`own`: not
 * for a group of cases shown by their first), the differences of the headline step, and the
 * steps run after it.
 */
function caseDetail(c: CaseLine, own = true): string {
  const pad = '           ';
  const out = [`${pad}${printable(c.detail)}`];
  if (own && (c.title || c.spec))
    out.push(
      `${pad}${[c.title && printable(c.title), c.spec && `(${printable(c.spec)})`].filter(Boolean).join(' ')}`,
    );
  out.push(...differenceLines(c.differences, c.moreDifferences, `${pad}  `));
  for (const s of c.afterFailure ?? []) {
    // A step with differences is shown by them; its detail would only repeat them.
    const why = s.outcome === 'pass' || s.differences?.length ? '' : `: ${printable(s.detail)}`;
    out.push(`${pad}then step ${s.index} (${printable(s.method)}), after the failure: ${s.outcome}${why}`);
    out.push(...differenceLines(s.differences, s.moreDifferences, `${pad}  `));
  }
  return `\n${out.join('\n')}`;
}

/** What did not pass, each distinct reason once: many items failing the same way are one entry. */
function notPassing(bad: readonly CaseLine[], strict: boolean): string[] {
  const byDetail = new Map<string, CaseLine[]>();
  for (const c of bad)
    byDetail.set(`${c.outcome}\u0000${c.detail}`, [
      ...(byDetail.get(`${c.outcome}\u0000${c.detail}`) ?? []),
      c,
    ]);
  const out: string[] = [];
  let listed = 0;
  let covered = 0;
  for (const group of byDetail.values()) {
    if (listed >= LISTED) break;
    const first = group[0]!;
    const detail = caseDetail(first, false);
    if (group.length >= GROUPED) {
      const ids = group.slice(0, 3).map((c) => c.id);
      out.push(
        `  ${first.outcome.padEnd(8)} ${group.length} items, ${ids.join(', ')}${group.length > 3 ? ', ...' : ''}${detail}`,
      );
      listed++;
      covered += group.length;
      continue;
    }
    for (const c of group) {
      if (listed >= LISTED) break;
      const note = c.expectedFailure
        ? ' (expected by the baseline)'
        : c.level === 'SHOULD' && !strict
          ? ' (SHOULD: a warning unless --strict)'
          : '';
      out.push(`  ${c.outcome.padEnd(8)} ${c.id}${note}${caseDetail(c)}`);
      listed++;
      covered++;
    }
  }
  if (covered < bad.length) out.push(`  ... and ${bad.length - covered} more (see the JSONL report)`);
  return out;
}

/** Whether no item of the run applied and none failed (a shard the implementation has no part in). */
export function emptyShard(summary: SummaryLine): boolean {
  const n = summary.counts;
  return (
    n.pass + n.fail + n.error + n.timeout + n.crash + (n['harness-error'] ?? 0) === 0 &&
    n['not-applicable'] > 0
  );
}

/**
 * Requirement coverage per gate: of each gate's requirements (conformance/requirements.json),
 * how many a case or scenario that ran and passed names. Empty without a catalogue.
 */
export function coverageLines(coverage: readonly GateCoverage[]): string[] {
  if (!coverage.length) return [];
  const tested = coverage.reduce((n, g) => n + g.tested, 0);
  const total = coverage.reduce((n, g) => n + g.total, 0);
  return [
    '',
    `Requirement coverage (requirements named by a case or scenario that passed / all; docs/coverage.md): ${tested}/${total}`,
    ...coverage.map((g) => `  ${g.gate.padEnd(38)} ${g.tested}/${g.total}`),
  ];
}

/**
 * The verdict of a conforming run: `CONFORMS`, `CONFORMS with N expected failures` when the
 * baseline expected some, and the warnings in parentheses.
 */
export function conformsText(expected: number, warnings: number): string {
  const e = expected ? ` with ${expected} expected failure${expected === 1 ? '' : 's'}` : '';
  const w = warnings ? ` (with ${warnings} warning${warnings === 1 ? '' : 's'})` : '';
  return `CONFORMS${e}${w}`;
}

/** The summary of a run. */
export function renderSummary(
  run: RunLine,
  cases: readonly CaseLine[],
  summary: SummaryLine,
  paint: ReturnType<typeof painter>,
  unreachable: string | null,
  requires: ReadonlyMap<string, readonly string[]>,
  coverage: readonly GateCoverage[] = [],
  /** Nothing the run selects, in any shard, applies to the implementation (no NO VERDICT then). */
  judgedNowhere = false,
): string {
  const impl = run.implementation;
  const who =
    impl.capabilities === null
      ? `${printable(impl.command)} (it never answered hello)`
      : `${printable(impl.name)} ${printable(impl.version)} (${printable(impl.language)})`;
  const out: string[] = [`\nConformance of ${who}, protocol v${run.protocolVersion}\n`];
  if (unreachable)
    out.push(
      paint.red(
        `The implementation could not be started or did not answer hello:\n  ${printableLines(unreachable).replace(/\n/g, '\n  ')}\n`,
      ),
    );
  const groups = new Map<string, Map<string, CaseLine[]>>();
  for (const c of cases) {
    const g = groups.get(c.gate) ?? new Map<string, CaseLine[]>();
    g.set(c.subject, [...(g.get(c.subject) ?? []), c]);
    groups.set(c.gate, g);
  }
  const cell = (list: readonly CaseLine[]) => {
    const n = countOutcomes(list);
    const applicable = list.length - n['not-applicable'];
    const bad = n.fail + n.error + n.timeout + n.crash + n['harness-error'];
    const text = applicable === 0 ? 'n/a' : `${n.pass}/${applicable}`;
    const extra = bad
      ? `  (${[n.fail && `${n.fail} fail`, n.error && `${n.error} error`, n.timeout && `${n.timeout} timeout`, n.crash && `${n.crash} crash`, n['harness-error'] && `${n['harness-error']} harness-error`].filter(Boolean).join(', ')})`
      : '';
    return { text, extra, ok: bad === 0 && applicable > 0 };
  };
  const rank = (g: string) => {
    const i = GATE_ORDER.indexOf(g);
    return i === -1 ? GATE_ORDER.length : i;
  };
  // An implementation that never started has nothing to show by gate: every item failed alike.
  for (const [gate, subjects] of unreachable ? [] : [...groups].sort((a, b) => rank(a[0]) - rank(b[0]))) {
    const all = [...subjects.values()].flat();
    const g = cell(all);
    out.push(`${paint.bold(gate.padEnd(40))} ${g.ok ? paint.green(g.text) : paint.red(g.text)}${g.extra}`);
    for (const [subject, list] of subjects) {
      const s = cell(list);
      out.push(`  ${subject.padEnd(38)} ${s.ok ? s.text : paint.red(s.text)}${s.extra}`);
    }
  }
  const bad = cases.filter((c) => !['pass', 'not-applicable'].includes(c.outcome));
  if (bad.length) out.push('', 'Not passing:', ...notPassing(bad, summary.strict ?? false));
  const gaps = capabilityGaps(cases, requires, impl.capabilities);
  if (gaps.length)
    out.push('', 'Not applicable only for want of one more capability:', ...gaps.map((g) => `  ${g}`));
  if (summary.stalePassing.length) {
    out.push(
      '',
      paint.red('Baseline entries that now pass (remove them: `agent-contracts baseline update`):'),
    );
    for (const id of summary.stalePassing) out.push(`  ${id}`);
  }
  const warnings = summary.warnings ?? [];
  if (warnings.length)
    out.push(
      '',
      paint.yellow(
        `${warnings.length} warning${warnings.length === 1 ? '' : 's'}: SHOULD case${warnings.length === 1 ? '' : 's'} failed; ${warnings.length === 1 ? 'it does' : 'they do'} not fail the run (--strict makes ${warnings.length === 1 ? 'it' : 'them'} fail):`,
      ),
      ...warnings.slice(0, LISTED).map((id) => `  ${id}`),
      ...(warnings.length > LISTED ? [`  ... and ${warnings.length - LISTED} more`] : []),
    );
  if (summary.strict) out.push('', 'Strict run (--strict): failed SHOULD cases fail the run.');
  out.push(...coverageLines(coverage));
  const n = summary.counts;
  const kitBugs = n['harness-error'] ?? 0;
  if (kitBugs)
    out.push(
      '',
      paint.red(
        `${kitBugs} ${kitBugs === 1 ? 'case' : 'cases'} ended as harness-error: a request of the conformance kit broke its own schema. That is a defect of agent-contracts, not of the implementation under test; the run cannot conform until the kit is fixed (please report it, with the case ids above).`,
      ),
    );
  const noVerdict = run.shard !== null && emptyShard(summary) && !unreachable && !judgedNowhere;
  if (judgedNowhere)
    out.push(
      '',
      paint.red(
        'Nothing this run selects, in any shard, applies to the implementation: its hello declares none of the capabilities the cases and scenarios need, so it was judged nowhere and does not conform.',
      ),
    );
  if (noVerdict)
    out.push(
      '',
      `Nothing in shard ${run.shard} applies to this implementation, so this shard observed nothing: it gives no verdict (exit 0, the report says conforms: false). The other shards judge the rest.`,
    );
  out.push(
    '',
    `${cases.length} cases: ${n.pass} pass, ${n.fail} fail, ${n.error} error, ${n.timeout} timeout, ${n.crash} crash, ${n['not-applicable']} not applicable${kitBugs ? `, ${kitBugs} harness-error` : ''} (${(summary.durationMs / 1000).toFixed(1)} s)`,
    noVerdict
      ? paint.bold('NO VERDICT (nothing applicable in this shard)')
      : summary.conforms
        ? paint.green(conformsText(cases.filter((c) => c.expectedFailure).length, warnings.length))
        : kitBugs
          ? paint.red("DOES NOT CONFORM (a harness error: the kit's bug, not the implementation's)")
          : paint.red('DOES NOT CONFORM'),
    '',
  );
  return out.join('\n');
}
