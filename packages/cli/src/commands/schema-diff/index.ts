import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareSchemas, type SchemaChange } from '@agent-contracts/schemas';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import { parseCommandArgs } from '../report-io.js';

const HELP = `Usage: agent-contracts schema-diff [--json] [--fail-on <level>] <before> <after>

Classify what changed between two versions of the JSON Schemas, matched by $id. <before> and
<after> are schema files or directories (every *.schema.json below them). Each schema is
identical, editorial (annotations only), compatible (accepts every document it accepted before,
and more), breaking (may refuse a document it accepted before), added or removed.

Options:
  --json             write the result as one JSON object (schemas/cli/schema-diff-output.schema.json)
  --fail-on <level>  the least change that fails the run: breaking (default), compatible (any change
                     a document can see, for frozen released schemas) or editorial (any change)
  -h, --help         show this help

Exit codes: 0 nothing at or above --fail-on; 1 something is (a removed schema counts as breaking,
an added one as compatible); 2 usage error or an unreadable schema.
`;

const LEVELS = ['identical', 'editorial', 'compatible', 'breaking'] as const;
type Level = (typeof LEVELS)[number];
type Status = Level | 'added' | 'removed';
const LEVEL_OF: Record<Status, Level> = {
  identical: 'identical',
  editorial: 'editorial',
  compatible: 'compatible',
  breaking: 'breaking',
  added: 'compatible',
  removed: 'breaking',
};

/** The most schema files a directory may hold, and the largest schema file read. */
const MAX_FILES = 10_000;
const MAX_BYTES = 16 * 1024 * 1024;

interface SchemaEntry {
  readonly id: string;
  readonly file: string;
  readonly schema: Record<string, unknown>;
}

function listSchemaFiles(root: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(root);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new CliError(
        'INPUT_NOT_FOUND',
        `${root} does not exist; give a schema file or a directory of them.`,
      );
    throw new CliError('INPUT_READ_FAILED', `${root} cannot be read (${code ?? String(cause)}).`);
  }
  if (!stat.isDirectory()) return [root];
  const out: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (cause) {
      throw new CliError(
        'INPUT_READ_FAILED',
        `${dir} cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)}).`,
      );
    }
    for (const name of names) {
      const path = join(dir, name);
      const s = statSync(path, { throwIfNoEntry: false });
      if (s?.isDirectory()) {
        if (name !== 'node_modules' && !name.startsWith('.')) walk(path);
      } else if (s?.isFile() && name.endsWith('.schema.json')) {
        out.push(path);
        if (out.length > MAX_FILES)
          throw new CliError(
            'SCHEMA_INPUT_INVALID',
            `${root} holds more than ${MAX_FILES} *.schema.json files; point at the directory of one schema set.`,
          );
      }
    }
  };
  walk(root);
  if (out.length === 0)
    throw new CliError(
      'INPUT_NO_FILES',
      `${root} holds no *.schema.json file; point at a directory of schemas.`,
    );
  return out;
}

function loadSchemas(root: string): Map<string, SchemaEntry> {
  const byId = new Map<string, SchemaEntry>();
  for (const file of listSchemaFiles(root)) {
    let text: string;
    try {
      if (statSync(file).size > MAX_BYTES)
        throw new CliError('SCHEMA_INPUT_INVALID', `${file} is larger than 16 MiB; it is not a schema.`);
      text = readFileSync(file, 'utf8');
    } catch (cause) {
      if (cause instanceof CliError) throw cause;
      throw new CliError(
        'INPUT_READ_FAILED',
        `${file} cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)}).`,
      );
    }
    let schema: unknown;
    try {
      schema = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (cause) {
      throw new CliError(
        'SCHEMA_INPUT_INVALID',
        `${file} is not JSON (${cause instanceof Error ? cause.message : String(cause)}).`,
      );
    }
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      throw new CliError('SCHEMA_INPUT_INVALID', `${file} is not a JSON Schema object.`);
    const id = (schema as { $id?: unknown }).$id;
    if (typeof id !== 'string' || id === '')
      throw new CliError(
        'SCHEMA_INPUT_INVALID',
        `${file} has no "$id"; schemas are matched across versions by $id, so give each one.`,
      );
    const other = byId.get(id);
    if (other)
      throw new CliError('SCHEMA_INPUT_INVALID', `${file} and ${other.file} have the same $id ${id}.`);
    byId.set(id, { id, file, schema: schema as Record<string, unknown> });
  }
  return byId;
}

/** One schema's verdict in the output. */
interface SchemaResult {
  readonly id: string;
  readonly status: Status;
  readonly changes: readonly SchemaChange[];
}

const nameOf = (id: string) => id.replace(/^.*\//, '').replace(/\.schema\.json$/, '');

/** `agent-contracts schema-diff`. */
export const schemaDiffCommand: Command = {
  name: 'schema-diff',
  summary: 'classify schema changes between two versions: editorial, compatible or breaking',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs('schema-diff', args, {
      json: { type: 'boolean' },
      'fail-on': { type: 'string' },
    });
    if (values.help) {
      await io.out(HELP);
      return 0;
    }
    const failOn = (values['fail-on'] ?? 'breaking') as string;
    if (!['editorial', 'compatible', 'breaking'].includes(failOn))
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--fail-on ${JSON.stringify(failOn)} is not a level; use breaking, compatible or editorial.`,
      );
    if (positionals.length !== 2)
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'schema-diff needs exactly two arguments: <before> <after> (schema files or directories).',
      );
    const before = loadSchemas(positionals[0]!);
    const after = loadSchemas(positionals[1]!);
    const results: SchemaResult[] = [];
    for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const a = before.get(id);
      const b = after.get(id);
      if (!a) results.push({ id, status: 'added', changes: [] });
      else if (!b) results.push({ id, status: 'removed', changes: [] });
      else {
        const r = compareSchemas(a.schema, b.schema);
        results.push({ id, status: r.compatibility, changes: r.changes });
      }
    }
    const threshold = LEVELS.indexOf(failOn as Level);
    const failing = results.filter((r) => LEVELS.indexOf(LEVEL_OF[r.status]) >= threshold);
    const count = (s: Status) => results.filter((r) => r.status === s).length;
    const summary = {
      schemas: results.length,
      identical: count('identical'),
      editorial: count('editorial'),
      compatible: count('compatible'),
      breaking: count('breaking'),
      added: count('added'),
      removed: count('removed'),
      failOn,
      exitCode: failing.length ? 1 : 0,
    };
    if (values.json) {
      await io.out(
        `${JSON.stringify({ tool: 'agent-contracts', command: 'schema-diff', formatVersion: 1, results, summary }, null, 2)}\n`,
      );
    } else {
      const lines: string[] = [];
      for (const r of results) {
        if (r.status === 'identical') continue;
        const mark = failing.includes(r) ? ' (fails the run)' : '';
        lines.push(`${r.status.padEnd(10)}  ${nameOf(r.id)}  ${r.id}${mark}`);
        for (const c of r.changes) lines.push(`    ${c.kind.padEnd(9)}  ${c.path || '/'}  ${c.message}`);
      }
      lines.push(
        `${summary.schemas} schema${summary.schemas === 1 ? '' : 's'}: ${summary.breaking} breaking, ${summary.compatible} compatible, ${summary.editorial} editorial, ${summary.identical} identical, ${summary.added} added, ${summary.removed} removed` +
          (failing.length ? `; ${failing.length} at or above --fail-on ${failOn}` : ''),
      );
      await io.out(`${lines.join('\n')}\n`);
    }
    return summary.exitCode;
  },
};
