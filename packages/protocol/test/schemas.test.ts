// @module-tag unit
// Every method of docs/protocol.md has published params and result schemas (and the schemas of
// its refusal data), each with its `$id`, loadable with the contract schemas it refers to.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allSchemas } from '@agent-contracts/schemas';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { MESSAGE_TYPES, METHODS, type MessageTypeName, protocolSchemaId } from '../src/index.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const repo = resolve(import.meta.dirname, '../../..');
const schemaFile = (name: string) => join(repo, 'schemas/protocol', `${name}.schema.json`);
const load = (name: string) => JSON.parse(readFileSync(schemaFile(name), 'utf8')) as Record<string, unknown>;

/**
 * The methods docs/protocol.md names: in a `### ` heading of its Methods section (before the
 * parenthesis naming the version and capability), or in the first
 * column of a table headed `| method |` (the generated field tables are left out).
 */
function documentedMethods(): Set<string> {
  const doc = readFileSync(join(repo, 'docs/protocol.md'), 'utf8');
  const section = doc
    .slice(doc.indexOf('\n## Methods\n'), doc.indexOf('\n## Golden cases\n'))
    .replace(/<!-- protocol:([A-Za-z.]+) -->[\s\S]*?<!-- \/protocol:\1 -->/g, '');
  const names = new Set<string>();
  let methodTable = false;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) methodTable = false;
    if (line.startsWith('| method |')) methodTable = true;
    const found = line.startsWith('### ')
      ? [...line.split('(')[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
      : methodTable && line.startsWith('| `')
        ? [/^\| `([^`]+)`/.exec(line)![1]!]
        : [];
    for (const name of found) if (!name.endsWith('.*') && /^[a-z][A-Za-z.]*$/.test(name)) names.add(name);
  }
  return names;
}

describe('protocol schemas', () => {
  const documented = documentedMethods();

  it('cover every method docs/protocol.md names, and nothing it does not', () => {
    const known = new Set(METHODS.map((m) => m.method));
    expect([...documented].filter((n) => !known.has(n))).toEqual([]);
    expect([...known].filter((n) => !documented.has(n))).toEqual([]);
  });

  it.each(METHODS.map((m) => [m.method, m] as const))(
    '%s has params, result and refusal schemas',
    (_name, m) => {
      for (const type of [m.params, m.result, ...m.errors]) {
        const schema = load(type);
        expect(schema.$id).toBe(protocolSchemaId(type));
        expect(schema.title).toBe(type);
        expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
      }
    },
  );

  it('has one file per message type and no other', () => {
    const files = readdirSync(join(repo, 'schemas/protocol')).sort();
    expect(files).toEqual(MESSAGE_TYPES.map((t) => `${t}.schema.json`).sort());
    const used = new Set<MessageTypeName>(METHODS.flatMap((m) => [m.params, m.result, ...m.errors]));
    expect(MESSAGE_TYPES.filter((t) => !used.has(t) && t !== 'ProtocolErrorData')).toEqual([]);
  });

  it('compile strictly, with the contract schemas they refer to', () => {
    const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(ajv);
    for (const s of allSchemas().values()) ajv.addSchema(s as object);
    for (const t of MESSAGE_TYPES) ajv.addSchema(load(t));
    for (const t of MESSAGE_TYPES) expect(() => ajv.getSchema(protocolSchemaId(t))).not.toThrow();
    const hello = ajv.getSchema(protocolSchemaId('HelloResult'))!;
    const caps = {
      contracts: [],
      bundles: [],
      digest: true,
      store: false,
      liveness: false,
      checkpoint: false,
      trace: false,
      clock: true,
      crashPoints: [],
    };
    expect(hello({ name: 'n', version: '1', language: 'c', protocolVersion: 1, capabilities: caps })).toBe(
      true,
    );
    expect(
      hello({
        name: 'n',
        version: '1',
        language: 'c',
        protocolVersion: 1,
        capabilities: { ...caps, extra: 1 },
      }),
    ).toBe(false);
    const history = ajv.getSchema(protocolSchemaId('StoreHistoryResult'))!;
    expect(history([])).toBe(true);
    expect(history([{ schemaVersion: 'TaskRecoveryStateV5' }])).toBe(false);
  });
});
