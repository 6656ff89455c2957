// The summary `conform` prints on stdout: by gate and contract, the root causes of what did not
// pass (each once, with its count and its cases), each case that did not pass with its own
// differences, what was not applicable only for want of one more capability, and the verdict.
// Every string an implementation controls goes through `printable`.
import {
  type CaseLine,
  type Cause,
  causeOf,
  countOutcomes,
  type Difference,
  FAULT_SUBJECT,
  type GateCoverage,
  listedCauses,
  printable,
  printableLines,
  type RunLine,
  rootCauses,
  type SummaryLine,
  scopeText,
  type VerdictScope,
  verdictScope,
} from '@agent-contracts/harness';
import { type Capabilities, missingCapabilities } from '@agent-contracts/protocol';
import { GATES } from '@agent-contracts/schemas';
import type { painter } from '../../color.js';
import { docPath, docRefs } from '../../doc-path.js';
import { byCapabilityOrder, capabilityOf } from './undeclared.js';

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
      `${g.count} ${g.count === 1 ? 'case needs' : 'cases need'} ${[...g.declared].join(', ')}, which the implementation declares, and also ${missing}, which it does not (${docPath('docs/protocol.md#hello')})`,
  );
}

/** How many missing names of a list capability an n/a line names before it only counts them. */
const NAMES_SHOWN = 3;
/** How many n/a lines of other reasons (not a capability) are shown. */
const OTHER_REASONS = 5;

/**
 * What was not applicable, one line per capability the implementation does not declare, with how
 * many cases and fault scenarios need it: `n/a: capability "run" not declared: 212 cases, 3 fault
 * scenarios` (an item that needs several is counted under each); a list capability names what it
 * lacks; items not applicable for another reason, one line per reason.
 */
export function notApplicableLines(
  cases: readonly CaseLine[],
  requires: ReadonlyMap<string, readonly string[]>,
  caps: Capabilities | null,
): string[] {
  const byKey = new Map<string, { cases: number; scenarios: number; names: Set<string> }>();
  const other = new Map<string, { cases: number; scenarios: number }>();
  let items = 0;
  let counted = 0;
  const tally = (t: { cases: number; scenarios: number }, c: CaseLine) => {
    if (c.subject === FAULT_SUBJECT) t.scenarios++;
    else t.cases++;
  };
  for (const c of cases) {
    if (c.outcome !== 'not-applicable' || c.explore) continue;
    items++;
    const missing = caps ? missingCapabilities(requires.get(c.id) ?? [], caps) : [];
    const keys = new Set<string>();
    for (const token of missing) {
      const { key, name } = capabilityOf(token);
      const t = byKey.get(key) ?? { cases: 0, scenarios: 0, names: new Set<string>() };
      if (name !== undefined) t.names.add(name);
      if (!keys.has(key)) tally(t, c);
      keys.add(key);
      byKey.set(key, t);
    }
    counted += keys.size;
    if (!keys.size) {
      const why = printable(c.detail);
      const t = other.get(why) ?? { cases: 0, scenarios: 0 };
      tally(t, c);
      other.set(why, t);
    }
  }
  if (!items) return [];
  const counts = (t: { cases: number; scenarios: number }) =>
    [
      t.cases && `${t.cases} ${t.cases === 1 ? 'case' : 'cases'}`,
      t.scenarios && `${t.scenarios} fault ${t.scenarios === 1 ? 'scenario' : 'scenarios'}`,
    ]
      .filter(Boolean)
      .join(', ');
  const lines = [...byKey]
    .sort((a, b) => byCapabilityOrder(a[0], b[0]))
    .map(([key, t]) => {
      const names = [...t.names].sort();
      const what = names.length
        ? `does not list ${names.slice(0, NAMES_SHOWN).map(printable).join(', ')}${names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : ''}`
        : 'not declared';
      return `  n/a: capability "${printable(key)}" ${what}: ${counts(t)}`;
    });
  const reasons = [...other];
  for (const [why, t] of reasons.slice(0, OTHER_REASONS)) lines.push(`  n/a: ${counts(t)}: ${why}`);
  if (reasons.length > OTHER_REASONS)
    lines.push(`  n/a: ... and ${reasons.length - OTHER_REASONS} more reasons (see the JSONL report)`);
  const overlap = counted > items - [...other.values()].reduce((n, t) => n + t.cases + t.scenarios, 0);
  return [
    '',
    `Not applicable: ${items} ${items === 1 ? 'item' : 'items'}${overlap ? ' (one that needs several undeclared capabilities is counted under each)' : ''}:`,
    ...lines,
  ];
}

/** How many case ids a cause names before it only counts the rest. */
const CAUSE_CASES = 3;

/** A difference as `shape|behaviour: pointer: expected -> actual`, every part printable. */
const differenceLine = (d: Difference) => {
  const layer = d.kind ? `${d.kind}: ` : '';
  const where = printable(d.pointer || '(the reply)');
  const actual = d.actual === undefined ? '(nothing)' : printable(d.actual);
  if (d.keyword !== undefined) {
    const places = d.count ? ` (at ${d.count} places like it)` : '';
    const message = d.message ? `: ${printable(d.message)}` : '';
    return `${layer}${where}: breaks ${printable(d.schema ?? '')} (${printable(d.keyword)}${message}) -> ${actual}${places}`;
  }
  return `${layer}${where}: ${d.expected === undefined ? '(nothing)' : printable(d.expected)} -> ${actual}`;
};

/** Cause numbers of the causes shared by more than one case, by key. */
type CauseIndex = ReadonlyMap<string, { readonly n: number; readonly count: number }>;

/**
 * The differences of a case or step, indented under it, and how many more there are. A behaviour
 * difference is shown whole, with its shared cause; shape differences of a shared cause are one
 * line per cause (they are listed under "Top causes"), the others whole.
 */
function differenceLines(
  differences: readonly Difference[] | undefined,
  more: number | undefined,
  indent: string,
  causes: CauseIndex,
): string[] {
  const out: string[] = [];
  const folded = new Map<number, number>();
  for (const d of differences ?? []) {
    const shared = causes.get(causeOf(d).key);
    if (shared && d.kind === 'shape') {
      if (!folded.has(shared.n)) out.push(`\u0000${shared.n}`);
      folded.set(shared.n, (folded.get(shared.n) ?? 0) + 1);
      continue;
    }
    out.push(`${indent}${differenceLine(d)}${shared ? `  [cause ${shared.n}, ${shared.count} cases]` : ''}`);
  }
  const lines = out.map((l) => {
    if (!l.startsWith('\u0000')) return l;
    const n = Number(l.slice(1));
    const k = folded.get(n)!;
    return `${indent}shape: ${k} difference${k === 1 ? '' : 's'} of cause ${n} (see "Top causes")`;
  });
  if (more)
    lines.push(`${indent}... and ${more} more difference${more === 1 ? '' : 's'} (see the JSONL report)`);
  return lines;
}

/** What a step expected and what came back, when its reply differed. */
function replyLines(reply: CaseLine['reply'], indent: string): string[] {
  if (!reply) return [];
  return [
    `${indent}expected: ${printable(reply.expected)}`,
    `${indent}received: ${printable(reply.received)}`,
  ];
}

/**
 * Everything a case line says beyond its id: its headline, title and spec link, what the headline
 * step expected and received, its differences, and the steps run after it: all of them its own.
 */
function caseDetail(c: CaseLine, causes: CauseIndex): string {
  const pad = '           ';
  const out = [`${pad}${docRefs(printable(c.detail))}`];
  if (c.title || c.spec)
    out.push(
      `${pad}${[c.title && printable(c.title), c.spec && `(${docRefs(printable(c.spec))})`].filter(Boolean).join(' ')}`,
    );
  out.push(...replyLines(c.reply, `${pad}  `));
  out.push(...differenceLines(c.differences, c.moreDifferences, `${pad}  `, causes));
  for (const s of c.afterFailure ?? []) {
    // A step with differences is shown by them; its detail would only repeat them.
    const why = s.outcome === 'pass' || s.differences?.length ? '' : `: ${printable(s.detail)}`;
    out.push(
      `${pad}then step ${s.index + 1} (${printable(s.method)}), after the failure: ${s.outcome}${why}`,
    );
    out.push(...differenceLines(s.differences, s.moreDifferences, `${pad}  `, causes));
  }
  return `\n${out.join('\n')}`;
}

/** How many causes an entry of "Top causes" names before it only counts the rest. */
const CAUSES_NAMED = 5;

/**
 * The root causes of what did not pass: each difference (or, for a case without any, its
 * outcome and headline) that fails more than one case, once, with how many cases it fails and
 * which; those that say what the implementation did (behaviour, outcome) first, then those of
 * shape, each most frequent first and bounded (`listedCauses`). Causes that fail exactly the same
 * cases are one entry (an older shape breaks many members of one reply: they are one finding for
 * those cases).
 */
export function causeLines(bad: readonly CaseLine[]): { lines: string[]; index: CauseIndex } {
  const causes = rootCauses(bad).filter((c) => c.cases.length > 1);
  const entries = new Map<string, Cause[]>();
  for (const c of causes) {
    const key = c.cases.join('\u0000');
    entries.set(key, [...(entries.get(key) ?? []), c]);
  }
  // Behaviour and outcome causes first, then shape, each bounded; only a listed cause has a number.
  const { listed, unlisted } = listedCauses([...entries.values()], (group) =>
    group.every((c) => c.kind === 'shape'),
  );
  const index = new Map<string, { n: number; count: number }>();
  for (const [i, group] of listed.entries())
    for (const c of group) index.set(c.key, { n: i + 1, count: c.cases.length });
  if (!causes.length) return { lines: [], index };
  const lines = ['', 'Top causes (each once, with the cases it fails; a case can have several):'];
  for (const [i, group] of listed.entries()) {
    const cases = group[0]!.cases;
    const ids = cases.slice(0, CAUSE_CASES).map(printable).join(', ');
    const rest = cases.length > CAUSE_CASES ? `, ... (and ${cases.length - CAUSE_CASES} more)` : '';
    const n = String(i + 1).padStart(2);
    if (group.length === 1) {
      lines.push(`  ${n}. ${cases.length} cases  ${group[0]!.kind}: ${printable(group[0]!.text)}`);
    } else {
      lines.push(`  ${n}. ${cases.length} cases, ${group.length} differences in common:`);
      for (const c of group.slice(0, CAUSES_NAMED)) lines.push(`        ${c.kind}: ${printable(c.text)}`);
      if (group.length > CAUSES_NAMED) lines.push(`        ... and ${group.length - CAUSES_NAMED} more`);
    }
    lines.push(`      ${ids}${rest}`);
  }
  if (unlisted)
    lines.push(
      `  ... and ${unlisted} more cause${unlisted === 1 ? '' : 's'} shared by several cases (shown under their cases, and in the HTML report)`,
    );
  return { lines, index };
}

/**
 * What did not pass, each case with its own headline and differences. Items whose entries would
 * read the same but for their ids (the same outcome, headline, differences and later steps) are
 * one entry naming them.
 */
function notPassing(bad: readonly CaseLine[], strict: boolean, causes: CauseIndex): string[] {
  const note = (c: CaseLine) =>
    c.expectedFailure
      ? ' (expected by the baseline)'
      : c.level === 'SHOULD' && !strict
        ? ' (SHOULD: a warning unless --strict)'
        : '';
  const byText = new Map<string, CaseLine[]>();
  for (const c of bad) {
    const key = `${c.outcome}\u0000${note(c)}\u0000${caseDetail(c, causes)}`;
    byText.set(key, [...(byText.get(key) ?? []), c]);
  }
  const out: string[] = [];
  let listed = 0;
  let covered = 0;
  for (const group of byText.values()) {
    if (listed >= LISTED) break;
    const first = group[0]!;
    if (group.length >= GROUPED) {
      const ids = group.slice(0, 3).map((c) => printable(c.id));
      out.push(
        `  ${first.outcome.padEnd(8)} ${group.length} items alike${note(first)}, ${ids.join(', ')}${group.length > 3 ? ', ...' : ''}${caseDetail(first, causes)}`,
      );
      listed++;
      covered += group.length;
      continue;
    }
    for (const c of group) {
      if (listed >= LISTED) break;
      out.push(`  ${c.outcome.padEnd(8)} ${printable(c.id)}${note(c)}${caseDetail(c, causes)}`);
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
    `Requirement coverage (requirements named by a case or scenario that passed / all; ${docPath('docs/coverage.md')}): ${tested}/${total}`,
    ...coverage.map((g) => `  ${g.gate.padEnd(38)} ${g.tested}/${g.total}`),
  ];
}

/**
 * The verdict of a conforming run: `CONFORMS`, `CONFORMS with N expected failures` when the
 * baseline expected some, and the warnings in parentheses; then its scope
 * (`: digest, checkpoint; 70 of 1569 cases applicable`).
 */
export function conformsText(expected: number, warnings: number, scope: VerdictScope): string {
  const e = expected ? ` with ${expected} expected failure${expected === 1 ? '' : 's'}` : '';
  const w = warnings ? ` (with ${warnings} warning${warnings === 1 ? '' : 's'})` : '';
  return `CONFORMS${e}${w}: ${printable(scopeText(scope))}`;
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
  /** Where `--wire` wrote the messages (null: it was not given, or could not write). */
  wire: { readonly path: string | null; readonly all: boolean } = { path: null, all: false },
): string {
  const impl = run.implementation;
  const who =
    impl.capabilities === null
      ? `${printable(impl.command)} (it never answered hello)`
      : `${printable(impl.name)} ${printable(impl.version)} (${printable(impl.language)})`;
  const out: string[] = [`\nConformance of ${who}, protocol v${run.protocolVersion}\n`];
  if (unreachable !== null) {
    // The heading never stands alone: a start that gave no reason says so.
    const reason = printableLines(unreachable).trim();
    out.push(
      paint.red(
        `The implementation could not be started or did not answer hello:\n  ${reason ? reason.replace(/\n/g, '\n  ') : '(no reason was given: no message, and nothing on stderr)'}\n`,
      ),
    );
  }
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
  // Only what applied is listed by gate: what did not is one line per capability, below.
  const applied = (list: readonly CaseLine[]) => list.some((c) => c.outcome !== 'not-applicable');
  for (const [gate, subjects] of unreachable !== null
    ? []
    : [...groups].sort((a, b) => rank(a[0]) - rank(b[0]))) {
    const all = [...subjects.values()].flat();
    if (!applied(all)) continue;
    const g = cell(all);
    out.push(`${paint.bold(gate.padEnd(40))} ${g.ok ? paint.green(g.text) : paint.red(g.text)}${g.extra}`);
    for (const [subject, list] of subjects) {
      if (!applied(list)) continue;
      const s = cell(list);
      out.push(`  ${subject.padEnd(38)} ${s.ok ? s.text : paint.red(s.text)}${s.extra}`);
    }
  }
  const bad = cases.filter((c) => !['pass', 'not-applicable'].includes(c.outcome));
  if (bad.length) {
    // An implementation that never started failed every item alike: its one cause is said above.
    const causes = unreachable !== null ? { lines: [], index: new Map() } : causeLines(bad);
    out.push(...causes.lines, '', 'Not passing:', ...notPassing(bad, summary.strict ?? false, causes.index));
    out.push(
      wire.path
        ? `  Every message ${wire.all ? 'of the run' : 'of these'}, both ways, by case and step: ${printable(wire.path)} (--wire; ${docPath('docs/cli.md#the-wire-log')})`
        : `  To see every message these sent and received, run them again with --wire <file> (${docPath('docs/cli.md#the-wire-log')}); \`agent-contracts explain <case-id>\` shows what a case sends and expects.`,
    );
  }
  out.push(...notApplicableLines(cases, requires, impl.capabilities));
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
  const noVerdict = run.shard !== null && emptyShard(summary) && unreachable === null && !judgedNowhere;
  const scope = verdictScope(run, cases);
  const scoped = `: ${printable(scopeText(scope))}`;
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
      ? paint.bold(`NO VERDICT (nothing applicable in this shard)${scoped}`)
      : summary.conforms
        ? paint.green(conformsText(cases.filter((c) => c.expectedFailure).length, warnings.length, scope))
        : kitBugs
          ? paint.red(`DOES NOT CONFORM (a harness error: the kit's bug, not the implementation's)${scoped}`)
          : paint.red(`DOES NOT CONFORM${scoped}`),
    '',
  );
  return out.join('\n');
}
