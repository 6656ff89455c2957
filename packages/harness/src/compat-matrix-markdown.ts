// The compatibility matrix as Markdown (GitHub Flavored): the gates table, the failure lists its
// cells link to, and the fault matrix. Every string from a report is escaped (escape.ts); link
// targets are built from indexes only. Without details the output holds no timing, date or free
// text of a report, so the same outcomes always render the same bytes (docs/compatibility.md).
import { type CompatibilityMatrix, failureAnchor, type MatrixCell } from './compat-matrix.js';
import { escapeMarkdown as md } from './escape.js';
import { reportTitle } from './report-title.js';
import { scopedVerdictText } from './report-verdict.js';
import type { Outcome } from './runner.js';

const OUTCOME_TEXT: Readonly<Record<Outcome, string>> = {
  pass: 'pass',
  fail: '**fail**',
  error: '**error**',
  timeout: '**timeout**',
  crash: '**crash**',
  'not-applicable': 'n/a',
  'harness-error': '**kit bug**',
};

export interface MatrixMarkdownOptions {
  /** A heading of level 1 first (default true). */
  readonly title?: boolean;
  /** Each failure's detail text beside its id (default true). */
  readonly details?: boolean;
}

function cellMarkdown(cell: MatrixCell, impl: number, row: number): string {
  const applicable = cell.pass + cell.notPassing;
  const cov = cell.coverage ? ` · requirements ${cell.coverage.tested}/${cell.coverage.total}` : '';
  if (!applicable) return `${cell.notApplicable ? `n/a (${cell.notApplicable})` : '—'}${cov}`;
  const failed = cell.notPassing ? ` · [${cell.notPassing} not passing](#${failureAnchor(impl, row)})` : '';
  const na = cell.notApplicable ? ` · ${cell.notApplicable} n/a` : '';
  return `${cell.pass}/${applicable} pass${failed}${na}${cov}`;
}

/**
 * The compatibility matrix as Markdown.
 *
 * @example
 * const text = renderMatrixMarkdown(compatibilityMatrix(reports, catalogue), { details: false });
 */
export function renderMatrixMarkdown(m: CompatibilityMatrix, options: MatrixMarkdownOptions = {}): string {
  const details = options.details ?? true;
  const names = m.implementations.map((i) => `${md(reportTitle(i))} (${md(i.language)})`);
  const lines: string[] = [];
  if (options.title ?? true) lines.push('# agent-contracts compatibility matrix', '');
  lines.push(
    'Each cell: the golden cases of the gate that passed, of those that applied; those not passing',
    '(linked to their list); those not applicable; and the requirements of the gate that a passing',
    'case or scenario names, of all. The last row is the fault matrix.',
    '',
    `| Gate | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---|').join('')}`,
    `| Verdict | ${m.implementations.map((i) => md(scopedVerdictText(i))).join(' | ')} |`,
    ...m.rows.map(
      (row, r) =>
        `| ${row.faults ? `**${md(row.gate)}**` : md(row.gate)} | ${row.cells.map((c, i) => cellMarkdown(c, i, r)).join(' | ')} |`,
    ),
  );
  const lists = m.rows.flatMap((row, r) =>
    row.cells.flatMap((cell, i) => {
      if (!cell.notPassing) return [];
      const impl = m.implementations[i]!;
      return [
        '',
        `<a id="${failureAnchor(i, r)}"></a>`,
        '',
        `### ${md(reportTitle(impl))}: ${md(row.gate)}, ${cell.notPassing} not passing`,
        '',
        ...cell.failures.map(
          (f) =>
            `- ${OUTCOME_TEXT[f.outcome]} ${md(f.id)}${f.expected ? ' (expected by the baseline)' : ''}${details ? `: ${md(f.detail)}` : ''}`,
        ),
        ...(cell.moreFailures ? [`- … and ${cell.moreFailures} more (see the JSONL report)`] : []),
      ];
    }),
  );
  lines.push('', '## Not passing', '', ...(lists.length ? lists.slice(1) : ['Nothing failed.']));
  if (m.scenarios.length)
    lines.push(
      '',
      '## Fault matrix',
      '',
      `| Scenario | Gate | ${names.join(' | ')} |`,
      `|---|---|${names.map(() => '---|').join('')}`,
      ...m.scenarios.map(
        (s) =>
          `| ${md(s.id)} | ${md(s.gate)} | ${s.outcomes.map((o) => (o === null ? '—' : OUTCOME_TEXT[o])).join(' | ')} |`,
      ),
    );
  return `${lines.join('\n')}\n`;
}
