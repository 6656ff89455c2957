// @module-tag unit
// In process: the CLI never pollutes a prototype, whatever keys the input carries.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { memoryIo as fakeIo, tempDir } from './helpers.ts';

const { dir, cleanup } = tempDir();
afterAll(cleanup);

describe('main', () => {
  it('leaves Object.prototype untouched by __proto__ / constructor keys', async () => {
    const path = join(dir, 'proto.json');
    writeFileSync(
      path,
      '{"schemaVersion":"TaskRecoveryCommitFenceV1","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
    );
    const io = fakeIo('{"__proto__":{"polluted":1}}');
    expect(await main(['validate', '--json', path, '-'], io)).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(JSON.parse(io.stdout).summary).toMatchObject({ files: 2, invalid: 2 });
  });

  it('prints top-level help with usage exit 2 when no command is given', async () => {
    const io = fakeIo();
    expect(await main([], io)).toBe(2);
    expect(io.stdout).toContain('validate');
  });
});
