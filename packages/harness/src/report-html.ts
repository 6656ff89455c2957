// A self-contained HTML page from checked reports. Every string from a report is escaped
// (escape.ts), class names come from a fixed table, and a Content-Security-Policy allows no
// script and no resource beyond the page's own style sheet.
import { createHash } from 'node:crypto';
import { escapeMarkup as h } from './escape.js';
import type { CaseLine, Report } from './report.js';
import { judgeReport, VERDICT_TEXT } from './report-verdict.js';
import type { Outcome } from './runner.js';

const CELL: Readonly<Record<Outcome, string>> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'timeout',
  crash: 'crash',
  'not-applicable': 'n/a',
};

/** The class of a cell: the outcome itself, never a string from the report. */
const CLASS: Readonly<Record<Outcome, string>> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'timeout',
  crash: 'crash',
  'not-applicable': 'not-applicable',
};

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5rem;color:#111}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}
tr.gate th,tr.gate td{background:#eef;font-weight:bold}
td.pass{background:#d7f5d7}td.fail{background:#f8d0d0}td.error,td.crash,td.timeout{background:#f3c07a}
td.not-applicable{background:#eee;color:#666}td.expected{outline:2px dashed #888}
p.warning{background:#fff3cd;border:1px solid #e0b000;padding:4px 8px}`;

/** No script, no frame, no form, no remote anything: only the inline style sheet, by its hash. */
const CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'`;

/**
 * A self-contained HTML page: gates x cases, one column per implementation, so several reports
 * can be compared side by side. Each column's verdict is derived from its case lines.
 */
export function renderHtml(reports: readonly Report[]): string {
  const ids = [...new Set(reports.flatMap((r) => r.cases.map((c) => c.id)))].sort();
  const meta = new Map<string, CaseLine>();
  for (const r of reports) for (const c of r.cases) if (!meta.has(c.id)) meta.set(c.id, c);
  const index = reports.map((r) => new Map(r.cases.map((c) => [c.id, c])));
  const judgements = reports.map(judgeReport);
  const gates = [...new Set(ids.map((id) => meta.get(id)!.gate))];
  const head = reports
    .map((r, i) => {
      const impl = r.run.implementation;
      return `<th scope="col" data-impl="${h(impl.name)}">${h(impl.name)} ${h(impl.version)}<br><small>${h(impl.language)} · <span class="verdict">${h(VERDICT_TEXT[judgements[i]!.verdict])}</span></small></th>`;
    })
    .join('');
  const warnings = reports
    .map((r, i) => {
      const d = judgements[i]!.disagreements;
      return d.length
        ? `<p class="warning">Warning: in the report of ${h(r.run.implementation.name)}, the summary line disagrees with the case lines (${h(d.join('; '))}); its verdict is derived from the case lines.</p>`
        : '';
    })
    .join('\n');
  const sections = gates.map((gate) => {
    const rows = ids
      .filter((id) => meta.get(id)!.gate === gate)
      .map((id) => {
        const cells = index
          .map((m) => {
            const c = m.get(id);
            if (!c) return '<td class="missing">—</td>';
            const star = c.expectedFailure ? '*' : '';
            return `<td class="${CLASS[c.outcome]}${star ? ' expected' : ''}" title="${h(c.detail)}">${CELL[c.outcome]}${star}</td>`;
          })
          .join('');
        return `<tr><th scope="row"><code>${h(id)}</code></th>${cells}</tr>`;
      });
    const totals = reports
      .map((r) => {
        const mine = r.cases.filter((c) => c.gate === gate);
        const pass = mine.filter((c) => c.outcome === 'pass').length;
        const applicable = mine.filter((c) => c.outcome !== 'not-applicable').length;
        return `<td class="total">${pass}/${applicable}</td>`;
      })
      .join('');
    return `<tbody data-gate="${h(gate)}"><tr class="gate"><th scope="rowgroup">${h(gate)}</th>${totals}</tr>${rows.join('')}</tbody>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>agent-contracts conformance</title>
<style>${STYLE}</style></head><body>
<h1>agent-contracts conformance</h1>
${warnings}
<p>${reports.length} implementation${reports.length === 1 ? '' : 's'}, ${ids.length} cases. * = expected failure (baseline).</p>
<table id="matrix"><thead><tr><th scope="col">case</th>${head}</tr></thead>
${sections.join('\n')}
</table></body></html>
`;
}
