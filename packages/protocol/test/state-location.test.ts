// @module-tag unit
// The one parser of a state location (docs/protocol.md#hello-v1, PROTO-004): every form it
// accepts, with its meaning, and every form it refuses, with STATE_LOCATION_INVALID.
import { describe, expect, it } from 'vitest';
import { directoryOf, parseStateLocation, STATE_LOCATION_INVALID, StateLocationError } from '../src/index.js';

describe('parseStateLocation', () => {
  it('null, memory: and memory:// keep state in memory', () => {
    for (const l of [null, 'memory:', 'memory://']) expect(parseStateLocation(l)).toEqual({ kind: 'memory' });
  });

  it('a bare path is a directory (relative, absolute, a Windows drive letter)', () => {
    expect(parseStateLocation('/tmp/job-1')).toEqual({ kind: 'directory', path: '/tmp/job-1' });
    expect(parseStateLocation('./state')).toEqual({ kind: 'directory', path: './state' });
    expect(parseStateLocation('tasks.db')).toEqual({ kind: 'directory', path: 'tasks.db' });
    expect(parseStateLocation('C:\\state')).toEqual({ kind: 'directory', path: 'C:\\state' });
  });

  it('sqlite:<file> and sqlite://<file> are that SQLite file', () => {
    expect(parseStateLocation('sqlite:./tasks.db')).toEqual({ kind: 'sqlite', path: './tasks.db' });
    expect(parseStateLocation('sqlite:///var/tasks.db')).toEqual({ kind: 'sqlite', path: '/var/tasks.db' });
  });

  it('postgres:// and postgresql:// are a database; schema= is taken out of the URL', () => {
    expect(parseStateLocation('postgres://u@h/db')).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
      schema: undefined,
    });
    expect(parseStateLocation('postgresql://u@h/db')).toEqual({
      kind: 'postgres',
      url: 'postgresql://u@h/db',
      schema: undefined,
    });
    expect(parseStateLocation('postgres://u:p@h:5432/db?schema=ac_x&sslmode=disable')).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@h:5432/db?sslmode=disable',
      schema: 'ac_x',
    });
  });

  for (const bad of [
    '',
    '  ',
    'mysql://h/db',
    'http://x',
    'sqlite:',
    'sqlite://',
    'postgres://h/db?schema=Bad-Name',
    'postgres://[',
  ]) {
    it(`refuses ${JSON.stringify(bad)} with ${STATE_LOCATION_INVALID} and says what to use`, () => {
      let caught: unknown;
      try {
        parseStateLocation(bad);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(StateLocationError);
      expect((caught as StateLocationError).code).toBe('STATE_LOCATION_INVALID');
      expect((caught as Error).message).toMatch(/directory|identifier/);
    });
  }

  it('directoryOf: the directory of a bare path, null for anything else (an invalid location included)', () => {
    expect(directoryOf('/tmp/job-1')).toBe('/tmp/job-1');
    expect(directoryOf(null)).toBeNull();
    expect(directoryOf('memory:')).toBeNull();
    expect(directoryOf('sqlite:/tmp/x.db')).toBeNull();
    expect(directoryOf('postgres://h/db')).toBeNull();
    expect(directoryOf('mysql://h/db')).toBeNull();
  });
});
