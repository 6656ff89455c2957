// @module-tag integration
// The wire log of `conform --wire`: the messages of the items that did not pass (or of all), each
// with its item, step, direction and time; bounded; written whole or not at all.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImplementationProcess, WIRE_LIMITS, WireLog, type WireTap } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-wire-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** One request and its reply, as the transport tells a tap. */
const exchange = (tap: WireTap, pid: number, id: number, method: string) => {
  tap.sent(pid, id, JSON.stringify({ jsonrpc: '2.0', id, method }));
  tap.received(pid, id, JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }));
};

describe('WireLog', () => {
  it('keeps the messages of items that did not pass, each with its item, step, direction and time', () => {
    const log = new WireLog({ all: false });
    const s = log.session();
    exchange(s.tap, 7, 1, 'hello');
    s.begin('a/passes');
    s.step(0);
    exchange(s.tap, 7, 2, 'validate');
    s.begin('a/fails');
    s.step(0);
    exchange(s.tap, 7, 3, 'store.read');
    s.step(1);
    s.tap.sent(7, 4, '{"jsonrpc":"2.0","id":4,"method":"store.history"}');
    s.tap.received(7, null, 'a stray log line');
    s.tap.received(7, 4, '{"jsonrpc":"2.0","id":4,"result":[]}');
    log.finish({ id: 'a/passes', outcome: 'pass' });
    log.finish({ id: 'a/fails', outcome: 'fail' });
    const path = join(dir, 'failing.jsonl');
    log.write(path);
    const lines = read(path);
    expect(lines[0]).toMatchObject({ type: 'wire', wireVersion: 1, recorded: 'failing' });
    expect(lines.slice(1).map((l) => [l.item, l.step, l.direction, l.pid])).toEqual([
      [null, 1, 'sent', 7],
      [null, 1, 'received', 7],
      ['a/fails', 1, 'sent', 7],
      ['a/fails', 1, 'received', 7],
      ['a/fails', 2, 'sent', 7],
      ['a/fails', null, 'received', 7],
      ['a/fails', 2, 'received', 7],
    ]);
    expect(lines[3].text).toBe('{"jsonrpc":"2.0","id":3,"method":"store.read"}');
    expect(lines[6].text).toBe('a stray log line');
    for (const l of lines.slice(1)) expect(Number.isNaN(Date.parse(l.at))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('with all, keeps every item; a fault scenario numbers its requests across its processes', () => {
    const log = new WireLog({ all: true });
    const s = log.session();
    s.begin('a/passes');
    s.step(0);
    exchange(s.tap, 1, 1, 'validate');
    log.finish({ id: 'a/passes', outcome: 'pass' });
    const scenario = log.scenario('faults/store/x');
    exchange(scenario, 10, 1, 'hello');
    exchange(scenario, 11, 1, 'hello');
    log.finish({ id: 'faults/store/x', outcome: 'pass' });
    const path = join(dir, 'all.jsonl');
    log.write(path);
    const lines = read(path).slice(1);
    expect(lines.map((l) => [l.item, l.step, l.pid])).toEqual([
      ['a/passes', 1, 1],
      ['a/passes', 1, 1],
      ['faults/store/x', 1, 10],
      ['faults/store/x', 1, 10],
      ['faults/store/x', 2, 11],
      ['faults/store/x', 2, 11],
    ]);
  });

  it('cuts a message at its bound with a marker, and counts what an item cannot keep', () => {
    const log = new WireLog({ all: false });
    const s = log.session();
    s.begin('big');
    s.tap.received(1, null, 'x'.repeat(WIRE_LIMITS.messageChars * 3));
    for (let i = 0; i < WIRE_LIMITS.itemMessages + 5; i++) s.tap.received(1, null, `line ${i}`);
    log.finish({ id: 'big', outcome: 'error' });
    const path = join(dir, 'big.jsonl');
    log.write(path);
    const lines = read(path);
    const first = lines[1];
    expect(first.text).toHaveLength(WIRE_LIMITS.messageChars);
    expect(first.text.endsWith('…')).toBe(true);
    expect(first.cut).toBe(WIRE_LIMITS.messageChars * 2 + 1);
    expect(lines.filter((l) => l.type === 'message')).toHaveLength(WIRE_LIMITS.itemMessages);
    expect(lines.at(-1)).toEqual({
      type: 'omitted',
      item: 'big',
      messages: 6,
      why: `an item keeps at most ${WIRE_LIMITS.itemMessages} messages`,
    });
  });

  it('an item still running when the log is written (an interrupted run) is kept', () => {
    const log = new WireLog({ all: false });
    const s = log.session();
    s.begin('hangs');
    s.step(0);
    s.tap.sent(1, 1, '{"jsonrpc":"2.0","id":1,"method":"validate"}');
    const path = join(dir, 'interrupted.jsonl');
    log.write(path);
    expect(
      read(path)
        .slice(1)
        .map((l) => l.item),
    ).toEqual(['hangs']);
  });

  it('a log that cannot be written leaves nothing behind, not even its temporary file', () => {
    const log = new WireLog({ all: true });
    const target = join(dir, 'no-such-dir', 'w.jsonl');
    expect(() => log.write(target)).toThrow(/ENOENT/);
    // A directory in the way of the rename: the temporary file beside it is removed.
    const blocker = join(dir, 'blocker');
    mkdirSync(blocker);
    writeFileSync(join(blocker, 'x'), 'x');
    expect(() => log.write(blocker)).toThrow();
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the transport and its tap', () => {
  it('a tap that throws changes nothing: the reply still arrives', async () => {
    const echo = join(dir, 'echo.mjs');
    writeFileSync(
      echo,
      `import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (l) => {
  const { id } = JSON.parse(l);
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }) + '\\n');
});
`,
    );
    const seen: string[] = [];
    const tap: WireTap = {
      sent: (_pid, _id, line) => {
        seen.push(line);
        throw new Error('tap broke');
      },
      received: (_pid, _id, line) => {
        seen.push(line);
        throw new Error('tap broke');
      },
    };
    const p = ImplementationProcess.start({ command: `node ${echo}`, wire: tap });
    try {
      expect(await p.call('ping')).toEqual({ result: { ok: true } });
    } finally {
      await p.close();
    }
    expect(seen.slice(0, 2)).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"result":{"ok":true}}',
    ]);
    // The session's end crosses the wire too.
    expect(seen[2]).toContain('"method":"shutdown"');
  });
});
