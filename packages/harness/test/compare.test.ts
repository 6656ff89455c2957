// @module-tag unit
// Two layers per step (docs/spec/decisions.md D-GEN-30): a reply in an older shape fails on its
// shape, every violation named and grouped, and its behaviour is still compared by pointer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMessageAll, generalPointer, judgeStep, readReply } from '../src/index.ts';
import { CONFORMANCE } from './faults-helpers.ts';

const fixture = (contract: string, name: string) =>
  JSON.parse(readFileSync(join(CONFORMANCE, 'fixtures', contract, 'valid', `${name}.json`), 'utf8'));

/** A store.replay result of two envelopes, valid against StoreReplayResult. */
function replayResult() {
  const envelope = fixture('TaskRecoveryStateV5', 'first-acquire');
  return {
    ok: true,
    envelopes: [envelope, { ...envelope }],
    fence: fixture('TaskRecoveryCommitFenceV1', 'first-owner-after-acquire'),
    writeContext: fixture('CanonicalTaskWriteContextV1', 'after-first-acquire'),
  };
}

/** The same result in an older shape: numeric schemaVersion, "" for null, a member missing. */
function legacy(result: ReturnType<typeof replayResult>) {
  type Loose = Record<string, unknown>;
  const old = structuredClone(result) as unknown as {
    envelopes: Array<Loose & { owner: Loose }>;
    fence: Loose;
  };
  for (const e of old.envelopes) {
    delete e.previousEnvelopeDigest;
    e.owner.handoffRef = '';
  }
  old.fence.schemaVersion = 1;
  return old;
}

describe('the shape layer names every violation, grouped', () => {
  it('a valid result has none; an older shape has every violation, of a union only the branch it got deepest into', () => {
    expect(readReply('store.replay', { result: replayResult() })).toEqual({ result: replayResult() });
    const reply = readReply('store.replay', { result: legacy(replayResult()) });
    expect('invalid' in reply).toBe(true);
    if (!('invalid' in reply)) return;
    const found = reply.violations!.map((v) => `${v.pointer} ${v.keyword}`);
    expect(found).toEqual(
      expect.arrayContaining([
        '/result/envelopes/0/previousEnvelopeDigest required',
        '/result/envelopes/1/previousEnvelopeDigest required',
        '/result/fence/schemaVersion const',
      ]),
    );
    // Of the union `handoffRef: object | null`, only the branch the value got deepest into.
    expect(found.filter((f) => f.includes('handoffRef'))).toEqual([
      '/result/envelopes/0/owner/handoffRef type',
      '/result/envelopes/1/owner/handoffRef type',
    ]);
    expect(found.some((f) => f.includes('anyOf'))).toBe(false);
  });

  it('checkMessageAll finds nothing in a valid message and every missing member of an empty one', () => {
    expect(checkMessageAll('DigestResult', { canonical: 'x', sha256: 'a'.repeat(64) })).toEqual([]);
    expect(checkMessageAll('DigestResult', {}, '/result').map((v) => v.pointer)).toEqual([
      '/result/canonical',
      '/result/sha256',
    ]);
  });

  it('generalPointer replaces array indices only', () => {
    expect(generalPointer('/result/envelopes/12/owner/0x')).toBe('/result/envelopes/*/owner/0x');
    expect(generalPointer('')).toBe('');
  });
});

describe('the behaviour layer compares the expected members through a broken shape', () => {
  it('an older shape with the same behaviour fails on shape alone', () => {
    const j = judgeStep(
      { result: replayResult() },
      readReply('store.replay', { result: legacy(replayResult()) }),
    );
    expect(j?.counts).toEqual({ shape: 3, behaviour: 0 });
    expect(j?.differences.map((d) => [d.kind, d.pointer, d.keyword, d.count])).toEqual([
      ['shape', '/result/envelopes/0/previousEnvelopeDigest', 'required', 2],
      ['shape', '/result/envelopes/0/owner/handoffRef', 'type', 2],
      ['shape', '/result/fence/schemaVersion', 'type', undefined],
    ]);
    // Two keywords broken at one pointer are one difference, with both messages.
    expect(j?.differences[2]?.message).toBe('must be string; must be equal to constant');
    expect(j?.detail).toMatch(/^the reply breaks its schema at 3 pointers: /);
    expect(j?.detail).toContain('(and 1 more place like it)');
    expect(j?.detail).not.toContain('behaviour');
  });

  it('a behaviour bug shows by pointer beside the shape, each difference marked with its layer', () => {
    const wrong = legacy(replayResult());
    wrong.envelopes[1]!.sequence = 7;
    const j = judgeStep({ result: replayResult() }, readReply('store.replay', { result: wrong }));
    expect(j?.counts).toEqual({ shape: 3, behaviour: 1 });
    expect(j?.differences.filter((d) => d.kind === 'behaviour')).toEqual([
      { pointer: '/result/envelopes/1/sequence', expected: '1', actual: '7', kind: 'behaviour' },
    ]);
    expect(j?.detail).toContain(
      '; and its behaviour differs too: the result differs at 1 pointer: /result/envelopes/1/sequence: expected 1, got 7',
    );
    expect(
      j?.reply.received.startsWith(
        '{"result":{"ok":true,"envelopes":[{"schemaVersion":"TaskRecoveryStateV5"',
      ),
    ).toBe(true);
  });
});

describe('a reply of the other kind says what was expected first (issue 24, finding 4)', () => {
  it('a refusal sent as a result: the -32000 refusal and its code lead, the schema breaks follow', () => {
    const reply = readReply('digest', {
      result: { code: 'DIGEST_INPUT_INVALID', message: 'duplicate member' },
    });
    expect('invalid' in reply).toBe(true);
    const j = judgeStep({ error: 'DIGEST_INPUT_INVALID' }, reply);
    expect(j?.detail).toMatch(
      /^expected refusal DIGEST_INPUT_INVALID \(a JSON-RPC error -32000 with data\.code "DIGEST_INPUT_INVALID"\), got a result \{"code":"DIGEST_INPUT_INVALID",/,
    );
    expect(j?.detail).toContain('(a refusal is sent as a JSON-RPC error, never as a result)');
    expect(j?.detail).toContain('; and the reply also breaks its schema at ');
    expect(j?.detail).toContain('DigestResult at /result/canonical: required');
    // The differences keep their order: shape first, then behaviour.
    expect(j?.differences[0]?.kind).toBe('shape');
    expect(j?.differences.filter((d) => d.kind === 'behaviour').map((d) => d.pointer)).toEqual([
      '/error',
      '/result',
    ]);
  });

  it('a result whose shape is fine but is not the refusal: unchanged, the refusal is the headline', () => {
    const reply = readReply('digest', { result: { canonical: '1', sha256: 'a'.repeat(64) } });
    const j = judgeStep({ error: 'DIGEST_INPUT_INVALID' }, reply);
    expect(j?.detail).toMatch(/^expected refusal DIGEST_INPUT_INVALID /);
    expect(j?.detail).not.toContain('schema');
  });
});
