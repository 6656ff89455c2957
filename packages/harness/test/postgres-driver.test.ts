// @module-tag unit
import { describe, expect, it } from 'vitest';
import { loadPg, PgNotInstalledError } from '../src/index.ts';

const notFound = (pkg: string, code = 'ERR_MODULE_NOT_FOUND') =>
  Object.assign(new Error(`Cannot find package '${pkg}' imported from /project/node_modules/x.js`), { code });

async function refusal(importer: () => Promise<unknown>): Promise<unknown> {
  try {
    await loadPg('a postgres:// state location', importer);
  } catch (e) {
    return e;
  }
  throw new Error('loadPg resolved');
}

describe('loadPg: pg, an optional peer dependency, loaded on demand', () => {
  it('without pg: PG_NOT_INSTALLED, naming what needs it and the package to add', async () => {
    for (const code of ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']) {
      const e = await refusal(() => Promise.reject(notFound('pg', code)));
      expect(e).toBeInstanceOf(PgNotInstalledError);
      expect((e as PgNotInstalledError).code).toBe('PG_NOT_INSTALLED');
      expect((e as Error).message).toMatch(/^a postgres:\/\/ state location needs the PostgreSQL driver pg/);
      expect((e as Error).message).toContain('(npm install pg@8)');
    }
  });

  it('a package pg itself lacks, or any other failure, is passed on as it is', async () => {
    const inner = notFound('pg-types');
    expect(await refusal(() => Promise.reject(inner))).toBe(inner);
    const other = new Error('boom');
    expect(await refusal(() => Promise.reject(other))).toBe(other);
  });

  it('loads the module (its default export under ESM), and the real one here', async () => {
    const Client = class {};
    expect((await loadPg('x', async () => ({ default: { Client } }))).Client).toBe(Client);
    expect(typeof (await loadPg('x')).Client).toBe('function');
  });
});
