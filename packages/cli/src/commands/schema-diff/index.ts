import { compareSchemas, type SchemaChange } from '@agent-contracts/schemas';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { type CliCode, CliError } from '../../errors.js';
import type { Io } from '../../io.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH } from '../validate/index.js';
import { parseInput, readInput } from '../validate/input.js';
import { expandArguments } from '../validate/walk.js';

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

/** The most schema files one argument may hold. */
const MAX_FILES = 10_000;
/** Schemas are read with the validate command's reader and its default limits. */
const LIMITS = { maxBytes: DEFAULT_MAX_BYTES, maxDepth: DEFAULT_MAX_DEPTH };

interface SchemaEntry {
  readonly id: string;
  readonly file: string;
  readonly schema: Record<string, unknown>;
}

/**
 * Every schema an argument names, by `$id`: the file itself, or every `*.schema.json` below a
 * directory (walked and read as `validate` walks and reads its inputs).
 */
async function loadSchemas(root: string, io: Io): Promise<Map<string, SchemaEntry>> {
  const byId = new Map<string, SchemaEntry>();
  for await (const target of expandArguments([root])) {
    if (target.kind === 'error')
      throw new CliError(target.issue.code as CliCode, `${target.path}: ${target.issue.message}`);
    if (target.path !== root && !target.path.endsWith('.schema.json')) continue;
    if (byId.size >= MAX_FILES)
      throw new CliError(
        'SCHEMA_INPUT_INVALID',
        `${root} holds more than ${MAX_FILES} *.schema.json files; point at the directory of one schema set.`,
      );
    const read = await readInput(target.path, io.stdin, LIMITS);
    const parsed = 'bytes' in read ? parseInput(read.bytes, LIMITS) : read;
    if (!parsed.ok) throw new CliError('SCHEMA_INPUT_INVALID', `${target.path}: ${parsed.issue.message}`);
    const schema = parsed.value;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      throw new CliError('SCHEMA_INPUT_INVALID', `${target.path} is not a JSON Schema object.`);
    const id = (schema as { $id?: unknown }).$id;
    if (typeof id !== 'string' || id === '')
      throw new CliError(
        'SCHEMA_INPUT_INVALID',
        `${target.path} has no "$id"; schemas are matched across versions by $id, so give each one.`,
      );
    const other = byId.get(id);
    if (other)
      throw new CliError('SCHEMA_INPUT_INVALID', `${target.path} and ${other.file} have the same $id ${id}.`);
    byId.set(id, { id, file: target.path, schema: schema as Record<string, unknown> });
  }
  if (byId.size === 0)
    throw new CliError(
      'INPUT_NO_FILES',
      `${root} holds no *.schema.json file; point at a directory of schemas.`,
    );
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
    const parsed = await commandArgs(io, 'schema-diff', HELP, args, {
      json: { type: 'boolean' },
      'fail-on': { type: 'string' },
    });
    if (!parsed) return 0;
    const { values, positionals } = parsed;
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
    const before = await loadSchemas(positionals[0]!, io);
    const after = await loadSchemas(positionals[1]!, io);
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
