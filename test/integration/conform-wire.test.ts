// @module-tag integration
// `conform --wire <file>`: every JSON-RPC message of the cases that did not pass (or of all, with
// --wire-all), both directions, with the case, step, direction and time, beside the report;
// bounded, and never the end of a run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE, repoRoot, runCli, tempDir } from './helpers/cli.ts';

const PROXY = join(repoRoot, 'packages/harness/test/fakes/hostile-proxy.mjs');
const proxied = (mode: string) => `node ${PROXY} ${mode} -- ${REFERENCE}`;
const CASES = 'validate/TaskRecoveryCommitFenceV1/*';
const tmp = tempDir();
afterAll(tmp.cleanup);

const jsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

function conformWired(impl: string, ...args: string[]) {
  const name = Math.random().toString(36).slice(2);
  const report = join(tmp.dir, `${name}.jsonl`);
  const wire = join(tmp.dir, `${name}.wire.jsonl`);
  const r = runCli([
    'conform',
    '--impl',
    impl,
    '--no-faults',
    '--filter',
    CASES,
    '--report',
    report,
    '--wire',
    wire,
    ...args,
  ]);
  return { ...r, report: jsonl(report), wirePath: wire, wire: () => jsonl(wire) };
}

describe('conform --wire', () => {
  it('records every message of the failing cases, both ways, by case and step; none of the passing ones', () => {
    const r = conformWired(proxied('flip-odd-validate'));
    expect(r.status, r.stderr).toBe(1);
    const failing = r.report.filter((l) => l.type === 'case' && l.outcome !== 'pass').map((l) => l.id);
    const passing = r.report.filter((l) => l.type === 'case' && l.outcome === 'pass').map((l) => l.id);
    expect(failing.length).toBeGreaterThan(0);
    expect(passing.length).toBeGreaterThan(0);
    const lines = r.wire();
    expect(lines[0]).toMatchObject({ type: 'wire', wireVersion: 1, recorded: 'failing' });
    const messages = lines.filter((l) => l.type === 'message');
    const items = new Set(messages.map((m) => m.item).filter((i) => i !== null));
    expect([...items].sort()).toEqual([...failing].sort());
    for (const id of failing) {
      const own = messages.filter((m) => m.item === id);
      const sent = own.find((m) => m.direction === 'sent');
      const received = own.find((m) => m.direction === 'received');
      expect(JSON.parse(sent.text)).toMatchObject({ jsonrpc: '2.0', method: 'validate' });
      expect(JSON.parse(received.text).id).toBe(JSON.parse(sent.text).id);
      expect([sent.step, received.step]).toEqual([1, 1]);
      expect(sent.pid).toBe(received.pid);
      expect(Date.parse(received.at)).toBeGreaterThanOrEqual(Date.parse(sent.at));
    }
    // The session's hello is outside any case, and kept.
    expect(
      messages.some((m) => m.item === null && m.direction === 'sent' && m.text.includes('"hello"')),
    ).toBe(true);
    // The summary points at the file.
    expect(r.stdout).toContain(`by case and step: ${r.wirePath} (--wire;`);
  });

  it('--wire-all records the passing cases too', () => {
    const r = conformWired(REFERENCE, '--wire-all');
    expect(r.status, r.stderr).toBe(0);
    const cases = r.report.filter((l) => l.type === 'case').map((l) => l.id);
    const lines = r.wire();
    expect(lines[0].recorded).toBe('all');
    const items = new Set(lines.filter((l) => l.type === 'message').map((m) => m.item));
    for (const id of cases) expect(items).toContain(id);
  });

  it('a reply past the bound is cut with a marker, and the run goes on as without --wire', () => {
    const r = conformWired(proxied('deep'));
    expect(r.status, r.stderr).toBe(1);
    const cut = r.wire().filter((l) => l.type === 'message' && l.cut);
    expect(cut.length).toBeGreaterThan(0);
    for (const m of cut) {
      expect(m.text.length).toBeLessThanOrEqual(8192);
      expect(m.text.endsWith('…')).toBe(true);
    }
  });

  it('without --wire, a failing run says how to see its messages', () => {
    const r = runCli(['conform', '--impl', proxied('flip-odd-validate'), '--no-faults', '--filter', CASES]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('run them again with --wire <file>');
  });

  it('a --wire file that cannot be written is a warning: the run and its report are whole', () => {
    const report = join(tmp.dir, 'unwritable.jsonl');
    const r = runCli([
      'conform',
      '--impl',
      REFERENCE,
      '--no-faults',
      '--filter',
      CASES,
      '--report',
      report,
      '--wire',
      join(tmp.dir, 'no-such-dir', 'w.jsonl'),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: the --wire file could not be written \(ENOENT/);
    expect(jsonl(report).at(-1).type).toBe('summary');
  });

  it('--wire-all alone, or --wire on the report file, is a usage error', () => {
    const alone = runCli(['conform', '--impl', REFERENCE, '--wire-all']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('USAGE_BAD_VALUE: --wire-all records every message to the --wire file');
    const same = join(tmp.dir, 'same.jsonl');
    const clash = runCli(['conform', '--impl', REFERENCE, '--report', same, '--wire', same]);
    expect(clash.status).toBe(2);
    expect(clash.stderr).toContain('USAGE_BAD_VALUE: --wire needs a file of its own');
  });
});
