// @module-tag integration
// The fault-matrix corpus and the driver's own parts: every scenario file is well-formed, names a
// routine the harness has, cites a spec anchor that exists, states its pass criterion, and is
// listed in docs/protocol.md; the fake tool counts; outcomes never read as a pass by accident.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FAULT_KIND_NAMES,
  FakeTool,
  faultStartOrder,
  lintFaultScenario,
  runFaultMatrix,
  runFaultScenario,
  scenarioStateLocation,
} from '../src/index.js';
import { REPO, scenarios, target } from './faults-helpers.js';

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

describe('fault scenarios (conformance/faults)', () => {
  const all = scenarios();

  it('cover the four seed-000 scenarios, F1-F14 and the field scenarios of the brief', () => {
    const ids = all.map((s) => s.id);
    for (const id of [
      'faults/liveness/no-continuation',
      'faults/liveness/active-lease',
      'faults/liveness/restart-rehydrate',
      'faults/liveness/duplicate-recovery',
      'faults/store/stale-fence',
      'faults/store/concurrent-writers',
      'faults/store/crash-between-dispatch-and-observe',
      'faults/store/crash-before-dispatch',
      'faults/store/kill-after-ack',
      'faults/store/crash-points',
      'faults/store/receipts-duplicate',
      'faults/store/receipts-late',
      'faults/store/receipts-mutated',
      'faults/store/terminal-preconditions',
      'faults/store/replay-writes-nothing',
      'faults/store/reopen-invalidates-fence',
      'faults/store/clock-jumps',
      'faults/field/zombie-writer-sigstop',
      'faults/field/pg-connections-dropped',
      'faults/field/recovery-while-running',
      'faults/field/resume-step-mismatch',
      'faults/field/whole-turn-retry',
      'faults/field/versioned-state',
    ])
      expect(ids).toContain(id);
    const anchors = new Set(all.flatMap((s) => s.anchors));
    for (let i = 1; i <= 14; i++) expect([...anchors], `F${i}`).toContain(`F${i}`);
  });

  it('cite spec anchors that exist', () => {
    for (const s of all) {
      const [page, anchor] = s.spec.split('#') as [string, string];
      const headings = readFileSync(join(REPO, page), 'utf8')
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => slug(l.replace(/^#+ /, '')));
      expect(headings, `${s.id} cites ${s.spec}`).toContain(anchor);
    }
  });

  it('are each listed in docs/protocol.md with their pass criterion', () => {
    const doc = readFileSync(join(REPO, 'docs/protocol.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Fault matrix'));
    expect(section.length).toBeGreaterThan(100);
    for (const s of all) {
      expect(section, s.id).toContain(`\`${s.id}\``);
      expect(section, `${s.id} pass criterion`).toContain(s.passCriterion.replace(/\|/g, '\\|'));
    }
  });

  it('lint rejects malformed scenarios with a reason', () => {
    const good = all[0]!;
    const kinds = FAULT_KIND_NAMES;
    expect(lintFaultScenario(`${good.id}.json`, good, kinds, new Set())).toEqual([]);
    const bad = (over: Record<string, unknown>) =>
      lintFaultScenario(`${good.id}.json`, { ...good, ...over }, kinds, new Set()).join('\n');
    expect(bad({ fault: 'no-such-fault' })).toMatch(/unknown fault/);
    expect(bad({ passCriterion: '' })).toMatch(/passCriterion/);
    expect(bad({ steps: [] })).toMatch(/steps/);
    expect(bad({ spec: 'docs/spec/x.md' })).toMatch(/spec/);
    expect(bad({ requires: ['time-travel'] })).toMatch(/requires/);
    expect(bad({ requirements: [] })).toMatch(/"requirements" must list the ids/);
    expect(bad({ requirements: ['GEN-7'] })).toMatch(/"requirements" must list the ids/);
    expect(lintFaultScenario('faults/other.json', good, kinds, new Set())).toEqual([
      expect.stringMatching(/must be conformance\//),
    ]);
    const seen = new Set<string>([good.id]);
    expect(lintFaultScenario(`${good.id}.json`, good, kinds, seen).join()).toMatch(/duplicate id/);
  });
});

describe('fault driver parts', () => {
  it('the fake tool counts every call per operation and key', () => {
    const tool = new FakeTool();
    tool.call('op-1', 'k1');
    tool.call('op-1', 'k1');
    tool.call('op-2', 'k2');
    expect(tool.count('op-1')).toBe(2);
    expect(tool.countKey('k2')).toBe(1);
    expect(tool.count('op-3')).toBe(0);
    expect(tool.total).toBe(3);
  });

  it('gives each scenario a fresh directory of an opaque name, and shares a database URL', () => {
    const root = mkdtempSync(join(tmpdir(), 'ac-opaque-'));
    try {
      const a = scenarioStateLocation(root);
      const b = scenarioStateLocation(root);
      expect(a).not.toBe(b);
      // Nothing in the name says which scenario runs there (finding 2 of issue 20).
      for (const dir of [a, b]) expect(basename(dir)).toMatch(/^s-[0-9a-f]{24}$/);
      expect(readdirSync(root).sort()).toEqual([basename(a), basename(b)].sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    expect(scenarioStateLocation('postgres://u@h/db?schema=s')).toBe('postgres://u@h/db?schema=s');
  });

  it('a scenario whose capability is missing is not applicable, never a pass', async () => {
    const s = scenarios('store/')[0]!;
    const hello = {
      name: 'x',
      version: '1',
      language: 'x',
      protocolVersion: 1,
      capabilities: {
        contracts: [],
        bundles: [],
        digest: false,
        store: false,
        liveness: false,
        checkpoint: false,
        trace: false,
        clock: false,
        crashPoints: [],
      },
    };
    const r = await runFaultScenario(s, hello, target('false'));
    expect(r.outcome).toBe('not-applicable');
    expect(r.detail).toMatch(/store/);
  });

  it('an implementation that cannot start ends every scenario as crash or error', async () => {
    const s = scenarios('store/')[0]!;
    const hello = {
      name: 'x',
      version: '1',
      language: 'x',
      protocolVersion: 1,
      capabilities: {
        contracts: [],
        bundles: [],
        digest: false,
        store: true,
        liveness: false,
        checkpoint: false,
        trace: false,
        clock: true,
        crashPoints: [],
      },
    };
    const r = await runFaultScenario(s, hello, target('exit 3'));
    expect(['crash', 'error']).toContain(r.outcome);
  });

  it('starts the longest routine first and still returns the results in scenario order', async () => {
    const all = scenarios();
    const crash = all.findIndex((s) => s.fault === 'crash-points');
    expect(crash).toBeGreaterThan(0);
    const order = faultStartOrder(all);
    expect(order[0]).toBe(crash);
    expect([...order].sort((a, b) => a - b)).toEqual(all.map((_, i) => i));
    // The others keep their order.
    expect(order.slice(1)).toEqual(all.map((_, i) => i).filter((i) => i !== crash));
    const list = [all[0]!, all[crash]!, all[1]!];
    const started: string[] = [];
    // An implementation that cannot start: every scenario is an error, none runs a process.
    const results = await runFaultMatrix(list, {
      ...target('exit 3'),
      jobs: 1,
      onStart: (s) => started.push(s.id),
    });
    expect(started).toEqual([all[crash]!.id, all[0]!.id, all[1]!.id]);
    expect(results.map((r) => r.id)).toEqual(list.map((s) => s.id));
    expect(results.map((r) => r.outcome)).toEqual(['error', 'error', 'error']);
  });
});
