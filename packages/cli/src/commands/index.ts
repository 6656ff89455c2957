import type { Command } from '../command.js';

/** A command as the top level knows it: its name and summary, and its code loaded on use. */
export interface CommandEntry {
  readonly name: string;
  /** The command's own `summary` (a test holds them equal). */
  readonly summary: string;
  /** Import the command's module: only the command that runs pays for loading its code. */
  load(): Promise<Command>;
}

/** Every command, by name. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'validate',
    summary: 'validate contract documents (files, directories of *.json, or stdin)',
    load: async () => (await import('./validate/index.js')).validateCommand,
  },
  {
    name: 'conform',
    summary: 'run the conformance kit against an implementation (a subprocess speaking protocol v1)',
    load: async () => (await import('./conform/index.js')).conformCommand,
  },
  {
    name: 'baseline',
    summary: 'write an expected-failures baseline from a conform report (baseline update)',
    load: async () => (await import('./baseline/index.js')).baselineCommand,
  },
  {
    name: 'report',
    summary: 'render JSONL reports as JUnit XML, Markdown or HTML',
    load: async () => (await import('./report/index.js')).reportCommand,
  },
  {
    name: 'matrix',
    summary: 'render the compatibility matrix of several reports (implementations x gates), HTML or Markdown',
    load: async () => (await import('./matrix/index.js')).matrixCommand,
  },
  {
    name: 'diff',
    summary: 'compare two JSONL reports: fixed, broken and new cases by id',
    load: async () => (await import('./diff/index.js')).diffCommand,
  },
  {
    name: 'schema-diff',
    summary: 'classify schema changes between two versions: editorial, compatible or breaking',
    load: async () => (await import('./schema-diff/index.js')).schemaDiffCommand,
  },
  {
    name: 'otel',
    summary:
      'OpenTelemetry GenAI traces: judge the agent runs of OTLP JSON (otel check), write traces as spans (otel export)',
    load: async () => (await import('./otel/index.js')).otelCommand,
  },
  {
    name: 'docs',
    summary: 'list the installed documentation pages, or print where one is (or the page, --print)',
    load: async () => (await import('./docs/index.js')).docsCommand,
  },
  {
    name: 'explain',
    summary:
      'show what a case or fault scenario checks: steps, requests, expected replies, requirements, spec',
    load: async () => (await import('./explain/index.js')).explainCommand,
  },
  {
    name: 'mutants',
    summary: 'run the kit against broken implementations and print the mutation score',
    load: async () => (await import('./mutants/index.js')).mutantsCommand,
  },
];
