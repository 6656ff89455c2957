import {
  FAULT_KIND_NAMES,
  loadCases,
  loadFaultScenarios,
  loadOtelCases,
  loadRequirements,
  type OtelCase,
  printable,
  printableLines,
} from '@agent-contracts/harness';
import { conformanceDirectory } from '@agent-contracts/kit';
import { distance } from 'fastest-levenshtein';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { docPath } from '../../doc-path.js';
import { CliError } from '../../errors.js';

const HELP = `Usage: agent-contracts explain <case-id>

What a golden case or fault scenario of the kit checks, as a failure names it: its title, level,
gate and file, the spec section (the path of the installed page, as docs/cli.md says), the
requirements it checks with their sentences (conformance/requirements.json), and its steps: for a
golden case each request the harness sends and the reply it expects, for a fault scenario what the
harness does and what must hold to pass, for a case of the OpenTelemetry mapping (otel/...) its
spans and the verdict \`otel check\` must give.

Options:
  -h, --help     show this help

Exit codes: 0 ok; 2 an id that is no case or scenario of the kit (CASE_UNKNOWN, with the closest ids).
`;

/** Requests and expectations are JSON; bounded so one huge fixture does not flood the terminal. */
const SHOWN = 4000;
function json(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  return text.length > SHOWN
    ? `${text.slice(0, SHOWN)}\n... (${text.length - SHOWN} more characters; see the case file)`
    : text;
}
const indent = (text: string, pad: string) =>
  text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');

/** The ids closest to `given`: those that contain it, else the nearest by edit distance. */
function closeIds(given: string, ids: readonly string[]): string[] {
  const containing = ids.filter((i) => i.includes(given) || given.includes(i));
  if (containing.length) return containing.slice(0, 5);
  return [...ids]
    .map((i) => [i, distance(given, i)] as const)
    .sort((a, b) => a[1] - b[1])
    .slice(0, 3)
    .map(([i]) => i);
}

/** A case of the OpenTelemetry mapping: its spans, and the verdict `otel check` must give. */
function explainOtel(c: OtelCase, requirementLines: readonly string[]): string[] {
  const out = [
    `${printable(c.id)}: ${printable(c.title)}`,
    `  level ${printable(c.level)}; gate ${printable(c.gate)}; checked by \`agent-contracts otel check\`, not by conform`,
    `  spec: ${docPath(c.spec)}`,
    `  file: ${conformanceDirectory}${printable(c.id)}.json`,
    '',
    'Requirements:',
    ...requirementLines,
    '',
    'Input (OTLP JSON, a list of ExportTraceServiceRequest values; pointers index into it):',
    indent(printableLines(json('requests' in c.input ? c.input.requests : c.input.text)), '  '),
    '',
    'Verdict otel check must give:',
  ];
  const issue = (i: { code: string; pointer: string }) =>
    `    ${printable(i.code)} at ${printable(i.pointer)}`;
  if (c.expect.input?.length) {
    out.push('  the input is refused, no run is judged:', ...c.expect.input.map(issue));
  }
  for (const r of c.expect.runs) {
    const facts = [
      r.status === undefined ? null : `status ${printable(r.status)}`,
      r.toolSpans === undefined ? null : `${r.toolSpans} tool span(s)`,
      r.chatSpans === undefined ? null : `${r.chatSpans} chat span(s)`,
      r.dropped === undefined ? null : `${r.dropped} event(s) dropped`,
    ].filter((f) => f !== null);
    out.push(
      `  run ${printable(r.id)}: ${r.ok ? 'passes' : 'fails'}${facts.length ? ` (${facts.join(', ')})` : ''}`,
      ...r.issues.map(issue),
    );
  }
  if (!c.expect.input?.length && c.expect.runs.length === 0) out.push('  no agent run');
  return out;
}

/** `agent-contracts explain`. */
export const explainCommand: Command = {
  name: 'explain',
  summary: 'show what a case or fault scenario checks: steps, requests, expected replies, requirements, spec',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'explain', HELP, args, {});
    if (!parsed) return 0;
    const { positionals } = parsed;
    if (positionals.length !== 1)
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'explain needs exactly one case id (as a report or failure line names it).',
      );
    const id = positionals[0]!;
    let cases: ReturnType<typeof loadCases>;
    let faults: ReturnType<typeof loadFaultScenarios>;
    let otel: OtelCase[];
    try {
      cases = loadCases(conformanceDirectory);
      faults = loadFaultScenarios(conformanceDirectory, FAULT_KIND_NAMES);
      otel = loadOtelCases(conformanceDirectory);
    } catch (e) {
      throw new CliError('CASES_INVALID', `cannot read the kit's cases: ${(e as Error).message}`);
    }
    const requirements = new Map(loadRequirements(conformanceDirectory).map((r) => [r.id, r]));
    const requirementLines = (ids: readonly string[]) =>
      ids.map((r) => {
        const req = requirements.get(r);
        return req
          ? `  ${r} (${req.level}, ${docPath(`${req.page}#${req.anchor}`)}): ${printableLines(req.sentence)}`
          : `  ${r}`;
      });
    const otelCase = otel.find((c) => c.id === id);
    if (otelCase) {
      await io.out(`${explainOtel(otelCase, requirementLines(otelCase.requirements)).join('\n')}\n`);
      return 0;
    }
    const item = cases.find((c) => c.id === id) ?? faults.find((f) => f.id === id);
    if (!item) {
      const near = closeIds(id, [
        ...cases.map((c) => c.id),
        ...faults.map((f) => f.id),
        ...otel.map((c) => c.id),
      ]);
      const run = /^otel\/[0-9a-f]{32}\/[0-9a-f]{16}$/.test(id)
        ? ' That is the id of a run of an OpenTelemetry trace (otel check names each run by its trace and agent span ids), not of a case: the issues of its report line say why it failed.'
        : '';
      throw new CliError(
        'CASE_UNKNOWN',
        `${JSON.stringify(printable(id))} is no golden case or fault scenario of this kit; closest: ${near.join(', ')}. Ids are printed by conform and in conformance/index.tsv.${run}`,
      );
    }
    const out: string[] = [
      `${item.id}: ${item.title}`,
      `  level ${item.level}; gate ${item.gate}; needs ${item.requires.join(', ') || 'nothing'}`,
      `  spec: ${docPath(item.spec)}`,
    ];
    if ('file' in item) out.push(`  file: ${conformanceDirectory}${item.file}`);
    out.push('', 'Requirements:', ...requirementLines(item.requirements));
    out.push('');
    if ('fault' in item) {
      out.push(`Fault scenario (${item.fault}); the harness:`);
      for (const [i, s] of item.steps.entries()) out.push(`  ${i + 1}. ${s}`);
      out.push(`Passes when: ${item.passCriterion}`);
    } else {
      out.push('Steps (requests the harness sends, replies it expects):');
      item.steps.forEach((s, i) => {
        out.push(`  step ${i + 1}: ${s.method}${s.malformed ? ' (malformed on purpose)' : ''}`);
        out.push('    request params:', indent(json(s.params ?? {}), '      '));
        out.push('    expected reply:', indent(json(s.expect), '      '));
        if (s.capture) out.push(`    captures: ${json(s.capture)}`);
      });
    }
    out.push(
      '',
      `What an implementation sent and answered in it: agent-contracts conform --impl "<command>" --filter '${printable(item.id)}' --wire <file> (${docPath('docs/cli.md#the-wire-log')}).`,
    );
    await io.out(`${out.join('\n')}\n`);
    return 0;
  },
};
