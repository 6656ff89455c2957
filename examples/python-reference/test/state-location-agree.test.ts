// @module-tag integration
// One meaning of a state location (docs/protocol.md#hello-v1, PROTO-004, PROTO-550; D-GEN-91):
// the Python reference reads every location as `parseStateLocation` of @agent-contracts/protocol
// does, the one parser of the TypeScript side. Its parser (agent_ref/state_location.py) must give
// the same answer, or the same refusal with the same message, for each location below; the SQLite
// file its store opens (`database_path`) must be the one that answer names; and its `hello` must
// refuse a location that names no store with STATE_LOCATION_INVALID.
import { join } from 'node:path';
import { DIRECTORY_SQLITE_FILE, parseStateLocation, StateLocationError } from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import { pythonJson } from './helpers/python-json.ts';

const LOCATIONS: ReadonlyArray<string | null> = [
  null,
  'memory:',
  'memory://',
  '',
  '   ',
  '\t\n',
  // Bare paths: directories, absolute and relative, and a Windows drive letter.
  '/var/lib/agent/state',
  '/var/lib/agent/state/',
  'state',
  './state/job-1',
  'C:\\state',
  'a:b',
  // SQLite files.
  'sqlite:/abs/tasks.db',
  'sqlite:///abs/tasks.db',
  'sqlite://rel/tasks.db',
  'sqlite:rel.db',
  'sqlite:',
  'sqlite://',
  // PostgreSQL.
  'postgres://agent:secret@db.example:5432/agent_contracts',
  'postgresql://db.example/agent_contracts',
  'postgres://db.example/agent_contracts?schema=ac_job_1',
  'postgres://db.example/agent_contracts?sslmode=require&schema=ac_job_2',
  'postgres://db.example/agent_contracts?schema=Job',
  'postgres://db.example/agent_contracts?schema=',
  'postgres://db.example:99999/agent_contracts',
  'postgres://db.example:port/agent_contracts',
  // Other schemes name no store.
  'mysql://db.example/agent',
  'file:///var/lib/agent',
  'https://example.com/state',
  'ab:c',
  'redis:',
];

type Answer = Record<string, unknown> | { invalid: string; message: string };

/** parseStateLocation's answer, in the Python parser's shape. */
function typescript(location: string | null): Answer {
  try {
    const parsed = parseStateLocation(location);
    return parsed.kind === 'postgres' ? { ...parsed, schema: parsed.schema ?? null } : { ...parsed };
  } catch (e) {
    if (!(e instanceof StateLocationError)) throw e;
    return { invalid: e.code, message: e.message };
  }
}

/** The SQLite file the store opens for the TypeScript parser's answer (null for PostgreSQL). */
function databaseFile(location: string | null): string | null | { invalid: string } {
  const answer = typescript(location);
  if ('invalid' in answer) return { invalid: answer.invalid as string };
  if (answer.kind === 'memory') return ':memory:';
  if (answer.kind === 'sqlite') return answer.path as string;
  if (answer.kind === 'directory') return join(answer.path as string, DIRECTORY_SQLITE_FILE);
  return null;
}

const PARSE = `
from agent_ref.state_location import StateLocationError, parse_state_location
out = []
for location in data:
    try:
        out.append(parse_state_location(location))
    except StateLocationError as e:
        out.append({"invalid": e.code, "message": str(e)})
json.dump(out, sys.stdout)
`;

// Paths normalised as node:path's join normalises them: './state' and 'state' name one directory.
const DATABASE = `
import os
from agent_ref.store_sqlite import database_path
out = []
for location in data:
    try:
        path = database_path(location)
        out.append(os.path.normpath(path) if path not in (None, ":memory:") else path)
    except Exception as e:
        out.append({"invalid": getattr(e, "code", repr(e))})
json.dump(out, sys.stdout)
`;

const HELLO = `
from agent_ref.errors import Refusal
from agent_ref.main import build
out = []
for location in data:
    try:
        build().hello({"protocolVersion": 1, "stateLocation": location, "localDirectory": None})
        out.append(None)
    except Refusal as r:
        out.append(r.code)
json.dump(out, sys.stdout)
`;

describe('the Python reference reads a state location as parseStateLocation does (PROTO-550)', () => {
  it('parse_state_location: the same answer, or the same refusal and message, for every location', () => {
    const python = pythonJson<Answer[]>(PARSE, LOCATIONS);
    expect(Object.fromEntries(LOCATIONS.map((l, i) => [String(l), python[i]]))).toEqual(
      Object.fromEntries(LOCATIONS.map((l) => [String(l), typescript(l)])),
    );
    // The list holds every form, and locations that name no store.
    const kinds = new Set(
      LOCATIONS.map((l) => typescript(l)).map((a) => ('invalid' in a ? 'invalid' : a.kind)),
    );
    expect([...kinds].sort()).toEqual(['directory', 'invalid', 'memory', 'postgres', 'sqlite']);
  });

  it('database_path: the SQLite file the location names, none for PostgreSQL, a refusal for no store', () => {
    const python = pythonJson<unknown[]>(DATABASE, LOCATIONS);
    expect(Object.fromEntries(LOCATIONS.map((l, i) => [String(l), python[i]]))).toEqual(
      Object.fromEntries(LOCATIONS.map((l) => [String(l), databaseFile(l)])),
    );
  });

  it('hello refuses a location that names no store with STATE_LOCATION_INVALID, and accepts the others', () => {
    // A SQLite file or directory hello would create is not asked for here: memory, PostgreSQL and
    // the locations that name nothing.
    const asked = LOCATIONS.filter((l) => {
      const a = typescript(l);
      return 'invalid' in a || a.kind === 'memory' || a.kind === 'postgres';
    });
    const python = pythonJson<Array<string | null>>(HELLO, asked);
    expect(Object.fromEntries(asked.map((l, i) => [String(l), python[i]]))).toEqual(
      Object.fromEntries(
        asked.map((l) => {
          const a = typescript(l);
          return [String(l), 'invalid' in a ? a.invalid : null];
        }),
      ),
    );
  });
});
