// A self-contained HTML page from checked reports: per implementation its verdict, counts and a
// bar per gate on the first screen; then the top causes of its failures (each once, with its
// count and links to its cases); then what did not pass, grouped by gate and contract, each open
// with its headline, what was expected beside what came back, its differences (each with its
// layer) and later steps, and its stderr excerpt and spec link; passing and not applicable cases
// collapsed; a filter box that searches ids, gates, outcomes, headlines and pointers; the
// side-by-side matrix of all cases.
// Every string from a report is escaped (escape.ts), class names come from fixed tables, and a
// Content-Security-Policy allows only the page's own style sheet and filter script, by hash.
import { createHash } from 'node:crypto';
import { isFailure } from './baseline.js';
import { type Cause, caseDifferences, causeOf, listedCauses, rootCauses } from './causes.js';
import { escapeMarkupLines, escapeMarkup as h } from './escape.js';
import type { Difference } from './json-diff.js';
import type { CaseLine, Report } from './report.js';
import { reportTitle } from './report-title.js';
import { judgeReport, type ReportJudgement, scopedVerdictText, VERDICT_TEXT } from './report-verdict.js';
import type { Requirement } from './requirements/catalogue.js';
import { runCoverage } from './requirements/coverage.js';
import type { Outcome, StepResult } from './runner.js';

const CELL: Readonly<Record<Outcome, string>> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'timeout',
  crash: 'crash',
  'not-applicable': 'n/a',
  'harness-error': 'kit bug',
};

/** The class of a cell: the outcome itself, never a string from the report. */
const CLASS: Readonly<Record<Outcome | StepResult['outcome'], string>> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  timeout: 'timeout',
  crash: 'crash',
  'not-applicable': 'not-applicable',
  'harness-error': 'harness-error',
  skipped: 'skipped',
  'not-compared': 'not-compared',
};

const VERDICT_CLASS: Readonly<Record<ReportJudgement['verdict'], string>> = {
  conforms: 'conforms',
  'does-not-conform': 'does-not-conform',
  incomplete: 'incomplete',
  interrupted: 'incomplete',
};

/** How much of an implementation's stderr tail a failure shows. */
const STDERR_SHOWN = 2000;

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5rem;color:#111}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}
tr.gate th,tr.gate td{background:#eef;font-weight:bold}
td.pass{background:#d7f5d7}td.fail{background:#f8d0d0}td.error,td.crash,td.timeout{background:#f3c07a}
td.not-applicable{background:#eee;color:#666}td.harness-error{background:#d9c8f0}td.expected{outline:2px dashed #888}
p.warning{background:#fff3cd;border:1px solid #e0b000;padding:4px 8px}
#summary{display:flex;flex-wrap:wrap;gap:1rem}
.impl{border:1px solid #ccc;padding:.5rem 1rem;min-width:18rem}.impl h2{font-size:1.1rem;margin:.2rem 0}
.verdict{font-weight:bold;font-size:1.2rem;margin:.3rem 0}.verdict.conforms{color:#176317}
.verdict.does-not-conform{color:#a31515}.verdict.incomplete{color:#8a5a00}
table.gates td,table.gates th{border:none;padding:1px 6px}meter{width:8rem}
details.case{border-left:4px solid #a31515;margin:.3rem 0;padding:.1rem .5rem;background:#fdf3f3}
details.case.error,details.case.timeout,details.case.crash{border-color:#c77700;background:#fdf6ea}
details.case>summary{cursor:pointer}span.outcome{font-weight:bold;text-transform:uppercase;font-size:.8rem}
table.diff{margin:.3rem 0}table.diff code{white-space:pre-wrap;word-break:break-all}
pre.stderr{background:#f4f4f4;padding:.4rem;max-height:16rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
ul.steps li.pass{color:#176317}ul.steps li.skipped,ul.steps li.not-compared{color:#666}
ul.collapsed{columns:2}#filterbar{margin:1rem 0}#filter{width:24rem}
td.shape{color:#6a3d9a}td.behaviour{color:#a31515}p.reply code{white-space:pre-wrap;word-break:break-all}
section.causes ol{margin:.2rem 0}section.causes li{margin:.2rem 0}span.count{font-weight:bold}
span.cause-ref{font-size:.8rem;color:#555}
p.coverage{margin:.3rem 0}p.warnings{color:#8a5a00}span.level{font-size:.8rem;color:#8a5a00}`;

/**
 * The filter box: hides every element with a `data-case` whose text (id, gate, contract,
 * outcome, implementation, and for a failure its headline and the pointers of its differences)
 * does not contain all the words typed. It reads attributes and writes
 * only `hidden` and a count as text: nothing from a report becomes markup or code. It has no
 * `<`, so no scan of the page for tags can mistake it for markup.
 */
const SCRIPT = `(function(){var box=document.getElementById('filter');var count=document.getElementById('shown');
var items=Array.prototype.slice.call(document.querySelectorAll('[data-case]'));
box.addEventListener('input',function(){var words=box.value.toLowerCase().split(/\\s+/).filter(Boolean);var n=0;
items.forEach(function(e){var t=e.getAttribute('data-case');var show=words.every(function(w){return t.indexOf(w)!==-1});
e.hidden=!show;if(show)n++});count.textContent=words.length?n+' of '+items.length+' shown':''})})();`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** No frame, no form, no remote anything: only the inline style sheet and the filter script, by their hashes. */
const CSP = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; base-uri 'none'; form-action 'none'`;

/** What the filter matches a case against, lowercased: with `failed`, its headline and pointers too. */
const filterText = (c: CaseLine, impl: string, failed = false) =>
  h(
    [
      c.id,
      c.gate,
      c.subject,
      c.outcome,
      c.outcome === 'not-applicable' ? 'n/a' : '',
      impl,
      ...(failed ? [c.detail, ...caseDifferences(c).map((d) => d.pointer)] : []),
    ]
      .join(' ')
      .toLowerCase(),
  );

/** Numbers of the causes shared by several cases of one report, by key. */
type CauseIndex = ReadonlyMap<string, { readonly n: number; readonly count: number }>;

const value = (v: string | undefined) => (v === undefined ? '<em>(nothing)</em>' : `<code>${h(v)}</code>`);

/** The expected side of a difference: a value, or the schema rule a broken reply breaks. */
const expectedCell = (d: Difference) =>
  d.keyword === undefined
    ? value(d.expected)
    : `<em>valid against</em> <code>${h(d.schema ?? '')}</code> (<code>${h(d.keyword)}</code>)`;

/** The layer of a difference, as a fixed class and text (never a string from the report). */
const LAYER: Readonly<Record<string, string>> = { shape: 'shape', behaviour: 'behaviour' };

function differenceTable(
  differences: readonly Difference[] | undefined,
  more: number | undefined,
  causes: CauseIndex = new Map(),
): string {
  if (!differences?.length) return '';
  const rows = differences
    .map((d) => {
      const layer = LAYER[d.kind ?? ''] ?? '';
      const places = d.count ? ` <small>(at ${d.count} places like it)</small>` : '';
      const message = d.message ? ` <small>${h(d.message)}</small>` : '';
      const shared = causes.get(causeOf(d).key);
      const ref = shared ? ` <span class="cause-ref">cause ${shared.n} (${shared.count} cases)</span>` : '';
      return `<tr><td class="${layer}">${layer}</td><td><code>${h(d.pointer || '(the reply)')}</code>${places}${ref}</td><td>${expectedCell(d)}${message}</td><td>${value(d.actual)}</td></tr>`;
    })
    .join('');
  const rest = more
    ? `<p>… and ${more} more difference${more === 1 ? '' : 's'} (see the JSONL report)</p>`
    : '';
  return `<table class="diff"><thead><tr><th>layer</th><th>pointer</th><th>expected</th><th>actual</th></tr></thead><tbody>${rows}</tbody></table>${rest}`;
}

/** What a step expected beside the reply it received. */
function replyBlock(reply: CaseLine['reply']): string {
  if (!reply) return '';
  return `<p class="reply">expected: <code>${h(reply.expected)}</code><br>received: <code>${h(reply.received)}</code></p>`;
}

function laterSteps(steps: readonly StepResult[] | undefined, causes: CauseIndex): string {
  if (!steps?.length) return '';
  const items = steps
    .map(
      (s) =>
        `<li class="${CLASS[s.outcome]}">step ${s.index + 1} (<code>${h(s.method)}</code>): <span class="outcome">${CLASS[s.outcome]}</span>${s.outcome === 'pass' ? '' : ` ${h(s.detail)}`}${replyBlock(s.reply)}${differenceTable(s.differences, s.moreDifferences, causes)}</li>`,
    )
    .join('');
  return `<p>Steps run after the failure:</p><ul class="steps">${items}</ul>`;
}

/** One case that did not pass, open: its headline and everything its line says, a click folds it. */
function failure(c: CaseLine, impl: string, anchor: string, causes: CauseIndex): string {
  const title = c.title ? ` — ${h(c.title)}` : '';
  const expected = c.expectedFailure
    ? ` <small>(expected by the baseline: ${h(c.expectedFailure)})</small>`
    : '';
  const spec = c.spec ? `<p>Spec: <code>${h(c.spec)}</code></p>` : '';
  const requirements = c.requirements?.length
    ? `<p class="requirements">Requirements: ${c.requirements.map((id) => `<code>${h(id)}</code>`).join(', ')}</p>`
    : '';
  const level = c.level === 'SHOULD' ? ' <span class="level">SHOULD</span>' : '';
  const stderr = c.stderrTail
    ? `<p>stderr (end):</p><pre class="stderr">${escapeMarkupLines(c.stderrTail.slice(-STDERR_SHOWN))}</pre>`
    : '';
  return `<details open class="case ${CLASS[c.outcome]}" id="${anchor}" data-case="${filterText(c, impl, true)}"><summary><span class="outcome">${CELL[c.outcome]}</span> <code>${h(c.id)}</code>${level}${title}${expected}</summary>
<p class="detail">${h(c.detail)}</p>${replyBlock(c.reply)}${differenceTable(c.differences, c.moreDifferences, causes)}${laterSteps(c.afterFailure, causes)}${spec}${requirements}${stderr}</details>`;
}

/** Items of `list` grouped by a key, in order of first appearance. */
function groupBy<T>(list: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of list) m.set(key(t), [...(m.get(key(t)) ?? []), t]);
  return m;
}

/**
 * Requirement coverage of a report against the kit's catalogue, recomputed from its case lines:
 * the requirements named by a passing case, of all, overall and per gate.
 */
function coverageBlock(r: Report, catalogue: readonly Requirement[]): string {
  if (!catalogue.length) return '';
  const gates = runCoverage(catalogue, r.cases);
  const tested = gates.reduce((n, g) => n + g.tested, 0);
  const total = gates.reduce((n, g) => n + g.total, 0);
  const rows = gates
    .map(
      (g) =>
        `<tr><td>${h(g.gate)}</td><td><meter min="0" max="${g.total}" value="${g.tested}"></meter></td><td>${g.tested}/${g.total}</td></tr>`,
    )
    .join('');
  return `<p class="coverage">Requirement coverage: <strong>${tested}/${total}</strong> requirements tested by a passing case</p>
<details class="coverage"><summary>by gate</summary><table class="gates requirements">${rows}</table></details>`;
}

function implSummary(
  r: Report,
  j: ReportJudgement,
  index: number,
  catalogue: readonly Requirement[],
): string {
  const impl = r.run.implementation;
  const n = j.counts;
  const gates = [...groupBy(r.cases, (c) => c.gate)]
    .map(([gate, list]) => {
      const pass = list.filter((c) => c.outcome === 'pass').length;
      const applicable = list.filter((c) => c.outcome !== 'not-applicable').length;
      const meter = applicable ? `<meter min="0" max="${applicable}" value="${pass}"></meter>` : '';
      return `<tr><td>${h(gate)}</td><td>${meter}</td><td>${applicable ? `${pass}/${applicable}` : 'n/a'}</td></tr>`;
    })
    .join('');
  return `<div class="impl" id="impl-${index}"><h2>${h(reportTitle({ ...impl, shard: r.run.shard }))} <small>(${h(impl.language)})</small></h2>
<p class="verdict ${VERDICT_CLASS[j.verdict]}">${h(scopedVerdictText(j))}</p>
<p class="counts">${n.pass} pass · ${n.fail} fail · ${n.error} error · ${n.timeout} timeout · ${n.crash} crash · ${n['not-applicable']} not applicable</p>${n['harness-error'] ? `\n<p class="warning">${n['harness-error']} ended as harness-error: a defect of the conformance kit (agent-contracts), not of this implementation; the run cannot conform until the kit is fixed.</p>` : ''}
${j.warnings.length ? `<p class="warnings">${j.warnings.length} warning${j.warnings.length === 1 ? '' : 's'}: SHOULD case${j.warnings.length === 1 ? '' : 's'} failed (not failing the run)</p>\n` : ''}${coverageBlock(r, catalogue)}
<table class="gates">${gates}</table></div>`;
}

/** How many case links a cause of the "top causes" section shows. */
const CAUSE_LINKS = 10;

/** The top causes of one report's failures: each once, its count, links to its cases. */
function causesBlock(
  name: string,
  causes: readonly Cause[],
  unlisted: number,
  anchors: ReadonlyMap<string, string>,
): string {
  if (!causes.length) return '';
  const items = causes
    .map((c) => {
      const links = c.cases
        .slice(0, CAUSE_LINKS)
        .map((id) => `<a href="#${anchors.get(id)}"><code>${h(id)}</code></a>`)
        .join(', ');
      const more = c.cases.length > CAUSE_LINKS ? `, … and ${c.cases.length - CAUSE_LINKS} more` : '';
      return `<li><span class="count">${c.cases.length} cases</span> <span class="kind">${LAYER[c.kind] ?? 'outcome'}</span>: <code>${h(c.text)}</code><br><small>${links}${more}</small></li>`;
    })
    .join('');
  const rest = unlisted
    ? `<p>… and ${unlisted} more cause${unlisted === 1 ? '' : 's'} shared by several cases, shown under their cases</p>`
    : '';
  return `<section class="causes"><h2>${h(name)}: top causes</h2><p>Each difference that fails more than one case, once: what the implementation did (behaviour, outcome) first, then shape, each the most frequent first.</p><ol>${items}</ol>${rest}</section>`;
}

function implDetails(r: Report, index: number): { causes: string; details: string } {
  const name = r.run.implementation.name;
  const bad = r.cases.filter((c) => isFailure(c.outcome) || c.outcome === 'harness-error');
  // Anchors are numbers, never strings of the report.
  const anchors = new Map(bad.map((c, i) => [c.id, `case-${index}-${i}`]));
  // Behaviour and outcome causes first, then shape, each bounded; only a listed cause has a number.
  const { listed: causes, unlisted } = listedCauses(
    rootCauses(bad).filter((c) => c.cases.length > 1),
    (c) => c.kind === 'shape',
  );
  const causeIndex: CauseIndex = new Map(causes.map((c, i) => [c.key, { n: i + 1, count: c.cases.length }]));
  // Unexpected failures before the ones the baseline expects, each group by gate and contract.
  const ordered = [...bad.filter((c) => !c.expectedFailure), ...bad.filter((c) => c.expectedFailure)];
  const failures = [...groupBy(ordered, (c) => c.gate)]
    .map(
      ([gate, list]) =>
        `<h3>${h(gate)}</h3>${[...groupBy(list, (c) => c.subject)].map(([subject, cs]) => `<h4>${h(subject)}</h4>${cs.map((c) => failure(c, name, anchors.get(c.id)!, causeIndex)).join('\n')}`).join('\n')}`,
    )
    .join('\n');
  const collapsed = (outcome: Outcome, label: string) => {
    const list = r.cases.filter((c) => c.outcome === outcome);
    if (!list.length) return '';
    const items = list
      .map(
        (c) =>
          `<li data-case="${filterText(c, name)}"><code>${h(c.id)}</code>${c.title ? ` — ${h(c.title)}` : ''}${outcome === 'not-applicable' ? ` <small>${h(c.detail)}</small>` : ''}</li>`,
      )
      .join('');
    return `<details class="collapsed"><summary>${list.length} ${label}</summary><ul class="collapsed">${items}</ul></details>`;
  };
  return {
    causes: causesBlock(name, causes, unlisted, anchors),
    details: `<section class="details"><h2>${h(name)}: ${bad.length ? `${bad.length} not passing` : 'nothing failed'}</h2>
${failures}
${collapsed('pass', 'passing')}
${collapsed('not-applicable', 'not applicable')}</section>`,
  };
}

/** The side-by-side matrix: gates x cases, one column per implementation. */
function matrix(reports: readonly Report[], judgements: readonly ReportJudgement[]): string {
  const ids = [...new Set(reports.flatMap((r) => r.cases.map((c) => c.id)))].sort();
  const meta = new Map<string, CaseLine>();
  for (const r of reports) for (const c of r.cases) if (!meta.has(c.id)) meta.set(c.id, c);
  const index = reports.map((r) => new Map(r.cases.map((c) => [c.id, c])));
  const gates = [...new Set(ids.map((id) => meta.get(id)!.gate))];
  const head = reports
    .map((r, i) => {
      const impl = r.run.implementation;
      return `<th scope="col" data-impl="${h(impl.name)}">${h(reportTitle({ ...impl, shard: r.run.shard }))}<br><small>${h(impl.language)} · <span class="verdict">${h(VERDICT_TEXT[judgements[i]!.verdict])}</span></small></th>`;
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
            const star = c.expectedFailure ? '*' : '';
            return `<td class="${CLASS[c.outcome]}${star ? ' expected' : ''}" title="${h(c.detail)}">${CELL[c.outcome]}${star}</td>`;
          })
          .join('');
        const all = index.map((m) => m.get(id)).filter((c): c is CaseLine => c !== undefined);
        const text = h(
          `${id} ${gate} ${meta.get(id)!.subject} ${all.map((c) => `${c.outcome}${c.outcome === 'not-applicable' ? ' n/a' : ''}`).join(' ')}`.toLowerCase(),
        );
        return `<tr data-case="${text}"><th scope="row"><code>${h(id)}</code></th>${cells}</tr>`;
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
  return `<details id="all"${reports.length > 1 ? ' open' : ''}><summary>All ${ids.length} cases${reports.length > 1 ? ', side by side' : ''} (* = expected failure, baseline)</summary>
<table id="matrix"><thead><tr><th scope="col">case</th>${head}</tr></thead>
${sections.join('\n')}
</table></details>`;
}

/**
 * A self-contained HTML page of one or several reports. Each implementation's verdict is derived
 * from its case lines (judgeReport); the page loads nothing and runs only its own filter script.
 * With a requirement catalogue (conformance/requirements.json) it also shows requirement coverage.
 */
export function renderHtml(
  reports: readonly Report[],
  options: { readonly catalogue?: readonly Requirement[] } = {},
): string {
  const catalogue = options.catalogue ?? [];
  const judgements = reports.map(judgeReport);
  const details = reports.map(implDetails);
  const warnings = reports
    .map((r, i) => {
      const d = judgements[i]!.disagreements;
      return d.length
        ? `<p class="warning">Warning: in the report of ${h(r.run.implementation.name)}, the summary line disagrees with the case lines (${h(d.join('; '))}); its verdict is derived from the case lines.</p>`
        : '';
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>agent-contracts conformance</title>
<style>${STYLE}</style></head><body>
<h1>agent-contracts conformance</h1>
${warnings}
<section id="summary">${reports.map((r, i) => implSummary(r, judgements[i]!, i, catalogue)).join('\n')}</section>
${details.map((d) => d.causes).join('\n')}
<p id="filterbar"><label>Filter: <input id="filter" type="search" placeholder="case id, gate, contract, outcome, headline or pointer" autocomplete="off"></label> <span id="shown"></span></p>
${details.map((d) => d.details).join('\n')}
${matrix(reports, judgements)}
<script>${SCRIPT}</script>
</body></html>
`;
}
