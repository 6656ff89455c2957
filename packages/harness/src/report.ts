// The canonical report is JSONL: a `run` line, one `case` line per result, a `summary` line.
// Every other format is rendered from it. Schema: schemas/harness/ReportLine.schema.json.
import type { HelloResult } from './protocol.js';
import type { CaseResult, Outcome } from './runner.js';

export const REPORT_VERSION = 1;

/** First line: what ran against what. */
export interface RunLine {
  readonly type: 'run';
  readonly reportVersion: number;
  readonly kit: { readonly name: string; readonly version: string };
  readonly protocolVersion: number;
  readonly implementation: Pick<HelloResult, 'name' | 'version' | 'language'> & {
    readonly command: string;
    readonly capabilities: HelloResult['capabilities'] | null;
  };
  readonly startedAt: string;
  readonly filter: readonly string[];
  readonly shard: string | null;
  readonly baseline: string | null;
}

export interface CaseLine extends CaseResult {
  readonly type: 'case';
  /** Set when the baseline expects this case to fail. */
  readonly expectedFailure?: string;
}

export type Counts = Record<Outcome, number>;

export interface SummaryLine {
  readonly type: 'summary';
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly counts: Counts;
  /** True when every applicable case passed, or failed as the baseline expects, and no baseline entry passed. */
  readonly conforms: boolean;
  readonly unexpectedFailures: readonly string[];
  readonly stalePassing: readonly string[];
}

export type ReportLine = RunLine | CaseLine | SummaryLine;

/** A parsed report. */
export interface Report {
  readonly run: RunLine;
  readonly cases: readonly CaseLine[];
  readonly summary: SummaryLine | null;
}

export function emptyCounts(): Counts {
  return { pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 0 };
}

export function countOutcomes(results: readonly CaseResult[]): Counts {
  const c = emptyCounts();
  for (const r of results) c[r.outcome]++;
  return c;
}

/** Parse JSONL report text; throws an Error naming the bad line. */
export function parseReport(text: string, name = 'report'): Report {
  let run: RunLine | null = null;
  const cases: CaseLine[] = [];
  let summary: SummaryLine | null = null;
  for (const [i, raw] of text.split('\n').entries()) {
    if (!raw.trim()) continue;
    let line: ReportLine;
    try {
      line = JSON.parse(raw) as ReportLine;
    } catch {
      throw new Error(`${name}: line ${i + 1} is not JSON`);
    }
    if (line.type === 'run') run = line;
    else if (line.type === 'case') cases.push(line);
    else if (line.type === 'summary') summary = line;
    else throw new Error(`${name}: line ${i + 1} has an unknown type`);
  }
  if (!run) throw new Error(`${name}: no "run" line; is this an agent-contracts JSONL report?`);
  return { run, cases, summary };
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JUnit XML: one testsuite per gate, one testcase per case. */
export function renderJunit(report: Report): string {
  const byGate = new Map<string, CaseLine[]>();
  for (const c of report.cases) byGate.set(c.gate, [...(byGate.get(c.gate) ?? []), c]);
  const suites = [...byGate].map(([gate, cases]) => {
    const failures = cases.filter((c) => c.outcome === 'fail' && !c.expectedFailure).length;
    const errors = cases.filter(
      (c) => ['error', 'timeout', 'crash'].includes(c.outcome) && !c.expectedFailure,
    ).length;
    const skipped = cases.filter((c) => c.outcome === 'not-applicable' || c.expectedFailure).length;
    const body = cases.map((c) => {
      const open = `    <testcase classname="${esc(`${gate}.${c.subject}`)}" name="${esc(c.id)}" time="${(c.durationMs / 1000).toFixed(3)}">`;
      let inner = '';
      if (c.expectedFailure) inner = `<skipped message="${esc(`expected failure: ${c.expectedFailure}`)}"/>`;
      else if (c.outcome === 'not-applicable') inner = `<skipped message="${esc(c.detail)}"/>`;
      else if (c.outcome === 'fail') inner = `<failure message="${esc(c.detail)}"/>`;
      else if (c.outcome !== 'pass')
        inner = `<error type="${c.outcome}" message="${esc(c.detail)}">${esc(c.stderrTail ?? '')}</error>`;
      return `${open}${inner}</testcase>`;
    });
    return `  <testsuite name="${esc(gate)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${body.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agent-contracts conformance: ${esc(report.run.implementation.name)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function tally(cases: readonly CaseLine[], key: 'gate' | 'subject'): Array<[string, Counts]> {
  const m = new Map<string, Counts>();
  for (const c of cases) {
    const counts = m.get(c[key]) ?? emptyCounts();
    counts[c.outcome]++;
    m.set(c[key], counts);
  }
  return [...m];
}

/** Markdown summary (e.g. for a CI step summary): by gate, then the cases that did not pass. */
export function renderMarkdown(report: Report): string {
  const impl = report.run.implementation;
  const lines = [
    `# Conformance: ${impl.name} ${impl.version} (${impl.language})`,
    '',
    `${report.summary?.conforms ? '**Conforms**' : '**Does not conform**'} to agent-contracts protocol ${report.run.protocolVersion}.`,
    '',
    '| Gate | pass | fail | error | timeout | crash | n/a |',
    '|---|---|---|---|---|---|---|',
    ...tally(report.cases, 'gate').map(
      ([g, c]) =>
        `| ${g} | ${c.pass} | ${c.fail} | ${c.error} | ${c.timeout} | ${c.crash} | ${c['not-applicable']} |`,
    ),
  ];
  const bad = report.cases.filter((c) => !['pass', 'not-applicable'].includes(c.outcome));
  if (bad.length) {
    lines.push('', '## Not passing', '', '| Case | Outcome | Detail |', '|---|---|---|');
    for (const c of bad) {
      lines.push(
        `| \`${c.id}\` | ${c.outcome}${c.expectedFailure ? ' (expected)' : ''} | ${c.detail.replace(/\|/g, '\\|')} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const CELL: Record<Outcome, string> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'timeout',
  crash: 'crash',
  'not-applicable': 'n/a',
};

/**
 * A self-contained HTML page: gates x cases, one column per implementation, so several reports
 * can be compared side by side.
 */
export function renderHtml(reports: readonly Report[]): string {
  const ids = [...new Set(reports.flatMap((r) => r.cases.map((c) => c.id)))].sort();
  const meta = new Map<string, CaseLine>();
  for (const r of reports) for (const c of r.cases) if (!meta.has(c.id)) meta.set(c.id, c);
  const index = reports.map((r) => new Map(r.cases.map((c) => [c.id, c])));
  const gates = [...new Set(ids.map((id) => meta.get(id)!.gate))];
  const head = reports
    .map((r) => {
      const s = r.summary;
      return `<th scope="col" data-impl="${esc(r.run.implementation.name)}">${esc(r.run.implementation.name)} ${esc(r.run.implementation.version)}<br><small>${esc(r.run.implementation.language)} · ${s?.conforms ? 'conforms' : 'does not conform'}</small></th>`;
    })
    .join('');
  const sections = gates.map((gate) => {
    const rows = ids
      .filter((id) => meta.get(id)!.gate === gate)
      .map((id) => {
        const cells = index
          .map((m) => {
            const c = m.get(id);
            if (!c) return '<td class="missing">—</td>';
            return `<td class="${c.outcome}${c.expectedFailure ? ' expected' : ''}" title="${esc(c.detail)}">${CELL[c.outcome]}${c.expectedFailure ? '*' : ''}</td>`;
          })
          .join('');
        return `<tr><th scope="row"><code>${esc(id)}</code></th>${cells}</tr>`;
      });
    const totals = reports
      .map((r) => {
        const mine = r.cases.filter((c) => c.gate === gate);
        const pass = mine.filter((c) => c.outcome === 'pass').length;
        const applicable = mine.filter((c) => c.outcome !== 'not-applicable').length;
        return `<td class="total">${pass}/${applicable}</td>`;
      })
      .join('');
    return `<tbody data-gate="${esc(gate)}"><tr class="gate"><th scope="rowgroup">${esc(gate)}</th>${totals}</tr>${rows.join('')}</tbody>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>agent-contracts conformance</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5rem;color:#111}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}
tr.gate th,tr.gate td{background:#eef;font-weight:bold}
td.pass{background:#d7f5d7}td.fail{background:#f8d0d0}td.error,td.crash,td.timeout{background:#f3c07a}
td.not-applicable{background:#eee;color:#666}td.expected{outline:2px dashed #888}
</style></head><body>
<h1>agent-contracts conformance</h1>
<p>${reports.length} implementation${reports.length === 1 ? '' : 's'}, ${ids.length} cases. * = expected failure (baseline).</p>
<table id="matrix"><thead><tr><th scope="col">case</th>${head}</tr></thead>
${sections.join('\n')}
</table></body></html>
`;
}
