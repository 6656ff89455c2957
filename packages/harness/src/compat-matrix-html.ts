// The compatibility matrix as a self-contained HTML page: implementations as columns, gates as
// rows (the fault matrix last), each cell its pass / not passing / not applicable counts and the
// gate's requirement coverage, a cell with failures linking to their list below; then the fault
// scenarios one by one. Every string from a report is escaped (escape.ts); ids and class names are
// built from indexes and fixed tables only; the Content-Security-Policy allows the page's own
// style sheet, by hash, and nothing else (no script).
import { createHash } from 'node:crypto';
import {
  type CompatibilityMatrix,
  failureAnchor,
  type MatrixCell,
  type MatrixFailure,
} from './compat-matrix.js';
import { escapeMarkup as h } from './escape.js';
import { reportTitle } from './report-title.js';
import { scopedVerdictText } from './report-verdict.js';
import type { Outcome } from './runner.js';

const OUTCOME_CLASS: Readonly<Record<Outcome, string>> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'timeout',
  crash: 'crash',
  'not-applicable': 'not-applicable',
  'harness-error': 'harness-error',
};
const OUTCOME_TEXT: Readonly<Record<Outcome, string>> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'timeout',
  crash: 'crash',
  'not-applicable': 'n/a',
  'harness-error': 'kit bug',
};
const VERDICT_CLASS = {
  conforms: 'conforms',
  'does-not-conform': 'does-not-conform',
  incomplete: 'incomplete',
  interrupted: 'incomplete',
} as const;

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5rem;color:#111}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
td.all-pass,td.pass{background:#d7f5d7}td.some-fail,td.fail{background:#f8d0d0}
td.error,td.crash,td.timeout{background:#f3c07a}td.harness-error{background:#d9c8f0}
td.none,td.not-applicable,td.missing{background:#eee;color:#666}
span.cov{display:block;font-size:.8rem;color:#444}.verdict{font-weight:bold}
.verdict.conforms{color:#176317}.verdict.does-not-conform{color:#a31515}.verdict.incomplete{color:#8a5a00}
section.failures{border-left:4px solid #a31515;margin:.6rem 0;padding:.1rem .6rem;background:#fdf3f3}
section.failures li code{word-break:break-all}p.more{color:#666}`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
const CSP = `default-src 'none'; style-src ${hash(STYLE)}; base-uri 'none'; form-action 'none'`;

function cellHtml(cell: MatrixCell, impl: number, row: number): string {
  const applicable = cell.pass + cell.notPassing;
  const cov = cell.coverage
    ? `<span class="cov">requirements ${cell.coverage.tested}/${cell.coverage.total}</span>`
    : '';
  if (!applicable) {
    const text = cell.notApplicable ? `n/a (${cell.notApplicable})` : '—';
    return `<td class="none">${text}${cov}</td>`;
  }
  const failed = cell.notPassing
    ? ` · <a href="#${failureAnchor(impl, row)}">${cell.notPassing} not passing</a>`
    : '';
  const na = cell.notApplicable ? ` · ${cell.notApplicable} n/a` : '';
  return `<td class="${cell.notPassing ? 'some-fail' : 'all-pass'}">${cell.pass}/${applicable} pass${failed}${na}${cov}</td>`;
}

function failureItem(f: MatrixFailure): string {
  const expected = f.expected ? ' <small>(expected by the baseline)</small>' : '';
  return `<li><strong>${OUTCOME_TEXT[f.outcome]}</strong> <code>${h(f.id)}</code>${expected}: ${h(f.detail)}</li>`;
}

/**
 * The compatibility matrix as one HTML page (no script, nothing loaded).
 *
 * @example
 * const html = renderMatrixHtml(compatibilityMatrix(reports, catalogue));
 */
export function renderMatrixHtml(m: CompatibilityMatrix): string {
  const head = m.implementations
    .map(
      (impl) =>
        `<th scope="col">${h(reportTitle(impl))}<br><small>${h(impl.language)} · <span class="verdict ${VERDICT_CLASS[impl.verdict]}">${h(scopedVerdictText(impl))}</span></small></th>`,
    )
    .join('');
  const rows = m.rows
    .map(
      (row, r) =>
        `<tr${row.faults ? ' class="faults"' : ''}><th scope="row">${h(row.gate)}</th>${row.cells.map((c, i) => cellHtml(c, i, r)).join('')}</tr>`,
    )
    .join('\n');
  const lists = m.rows
    .flatMap((row, r) =>
      row.cells.map((cell, i) => {
        if (!cell.notPassing) return '';
        const impl = m.implementations[i]!;
        const more = cell.moreFailures
          ? `<p class="more">… and ${cell.moreFailures} more (see the JSONL report)</p>`
          : '';
        return `<section class="failures" id="${failureAnchor(i, r)}"><h3>${h(reportTitle(impl))}: ${h(row.gate)}, ${cell.notPassing} not passing</h3><ul>${cell.failures.map(failureItem).join('')}</ul>${more}</section>`;
      }),
    )
    .filter(Boolean)
    .join('\n');
  const scenarios = m.scenarios.length
    ? `<h2 id="fault-matrix">Fault matrix</h2>
<table id="scenarios"><thead><tr><th scope="col">scenario</th><th scope="col">gate</th>${head}</tr></thead><tbody>
${m.scenarios
  .map(
    (s) =>
      `<tr><th scope="row"><code>${h(s.id)}</code></th><td>${h(s.gate)}</td>${s.outcomes
        .map((o) =>
          o === null
            ? '<td class="missing">—</td>'
            : `<td class="${OUTCOME_CLASS[o]}">${OUTCOME_TEXT[o]}</td>`,
        )
        .join('')}</tr>`,
  )
  .join('\n')}
</tbody></table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>agent-contracts compatibility matrix</title>
<style>${STYLE}</style></head><body>
<h1>agent-contracts compatibility matrix</h1>
<p>Each cell: golden cases of the gate that passed, of those that applied; cases not passing (a link to them); not applicable; and the gate's requirements named by a passing case or scenario, of all.</p>
<table id="matrix"><thead><tr><th scope="col">gate</th>${head}</tr></thead><tbody>
${rows}
</tbody></table>
${lists ? `<h2 id="not-passing">Not passing</h2>\n${lists}` : '<p id="not-passing">Nothing failed.</p>'}
${scenarios}
</body></html>
`;
}
