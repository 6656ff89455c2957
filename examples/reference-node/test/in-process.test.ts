// @module-tag unit
// The reference implementation through the in-process adapter: the same golden cases as the
// subprocess run, with no child process. Every applicable case passes.
import { fileURLToPath } from 'node:url';
import { loadCases, runSuite, startInProcess } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';

const conformanceDir = fileURLToPath(new URL('../../../conformance/', import.meta.url));

describe('reference-node, in process', () => {
  it('passes every golden case it declares, and declares every contract and bundle kind', async () => {
    const cases = loadCases(conformanceDir);
    const impl = await startInProcess(createHandler(), null);
    const results = await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
    const notPassing = results.filter((r) => r.outcome !== 'pass');
    expect(notPassing.map((r) => `${r.id}: ${r.outcome} ${r.detail}`)).toEqual([]);
    expect(results.length).toBe(cases.length);
  });

  it('refuses a protocol version it does not speak, and unknown methods', async () => {
    const h = createHandler();
    await expect(h.handle('hello', { protocolVersion: 2, stateLocation: null })).rejects.toMatchObject({
      code: 'PROTOCOL_VERSION_UNSUPPORTED',
    });
    await expect(h.handle('store.teleport', {})).rejects.toThrow(/not implemented/);
    await expect(h.handle('digest', { json: '{"k":"\\ud800"}' })).rejects.toMatchObject({
      code: 'DIGEST_INPUT_INVALID',
    });
  });

  it('moves its clock only when told to', async () => {
    const h = createHandler();
    await h.handle('clock.set', { now: '2026-11-30T06:00:00.000Z' });
    expect(await h.handle('clock.advance', { ms: -1000 })).toEqual({ now: '2026-11-30T05:59:59.000Z' });
  });

  it('has crash points only where it can die, and checks what crash.arm is given', async () => {
    const inProcess = createHandler();
    const plain = (await inProcess.handle('hello', { protocolVersion: 1, stateLocation: null })) as {
      capabilities: { crashPoints: string[] };
    };
    expect(plain.capabilities.crashPoints).toEqual([]);
    await expect(inProcess.handle('crash.arm', { point: 'commit-before-write' })).rejects.toThrow(
      /not implemented/,
    );

    const deaths: string[] = [];
    const h = createHandler({
      die: () => {
        deaths.push('died');
        throw new Error('died');
      },
    });
    const hello = (await h.handle('hello', { protocolVersion: 1, stateLocation: null })) as {
      capabilities: { crashPoints: string[] };
    };
    expect(hello.capabilities.crashPoints).toEqual(['commit-before-write', 'commit-after-write']);
    await expect(h.handle('crash.arm', { point: 'mid-air' })).rejects.toThrow(
      /must be one of commit-before-write/,
    );
    await expect(h.handle('crash.arm', { point: 'commit-after-write', skip: -1 })).rejects.toThrow(
      /non-negative integer/,
    );
    expect(await h.handle('crash.arm', { point: 'commit-after-write', skip: 1 })).toEqual({
      armed: 'commit-after-write',
      skip: 1,
    });
    expect(deaths).toEqual([]);
    await h.close();
  });
});
