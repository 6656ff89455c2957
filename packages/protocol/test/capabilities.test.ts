// @module-tag unit
// The capability vocabulary is one list: every token a golden case or fault scenario requires is
// in it, and what `hello` declares is read through it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  type Capabilities,
  capabilitiesProblem,
  declaredCapabilities,
  isCapabilityToken,
  missingCapabilities,
  REQUIRED_CAPABILITIES,
} from '../src/index.js';

const conformance = resolve(import.meta.dirname, '../../../conformance');

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name));
}

/** Every `requires` token of the golden cases and the fault scenarios, with the file naming it. */
function requiredTokens(): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const file of jsonFiles(join(conformance, 'cases'))) {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { cases?: Array<{ requires?: string[] }> };
    for (const c of data.cases ?? []) for (const t of c.requires ?? []) tokens.set(t, file);
  }
  for (const file of jsonFiles(join(conformance, 'faults'))) {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { requires?: string[] };
    for (const t of data.requires ?? []) tokens.set(t, file);
  }
  return tokens;
}

const ALL: Capabilities = {
  contracts: ['TaskRecoveryStateV5'],
  bundles: ['context-acquisition'],
  digest: true,
  store: true,
  liveness: true,
  checkpoint: true,
  trace: true,
  clock: true,
  crashPoints: ['commit-before-write'],
  policy: true,
  delegation: true,
  context: true,
};

describe('capability vocabulary', () => {
  it('holds every token the cases and fault scenarios require', () => {
    const tokens = requiredTokens();
    // The conformance suite requires tokens of every kind; an empty walk would prove nothing.
    expect(tokens.size).toBeGreaterThan(10);
    const unknown = [...tokens].filter(([t]) => !isCapabilityToken(t)).map(([t, f]) => `${t} (${f})`);
    expect(unknown).toEqual([]);
    const prefixes = new Set([...tokens.keys()].map((t) => t.split(':')[0]));
    for (const p of prefixes) expect(CAPABILITIES.map((c) => c.token)).toContain(p);
  });

  it('names every capability of hello once', () => {
    expect(CAPABILITIES.map((c) => c.key)).toEqual([
      'contracts',
      'bundles',
      'digest',
      'store',
      'liveness',
      'checkpoint',
      'trace',
      'clock',
      'crashPoints',
      'run',
      'policy',
      'delegation',
      'context',
    ]);
    expect(new Set(CAPABILITIES.map((c) => c.token)).size).toBe(CAPABILITIES.length);
  });

  it('accepts the token syntax and nothing else', () => {
    for (const t of [
      'store',
      'clock',
      'contract:TaskRecoveryStateV5',
      'bundle:context-acquisition',
      'crash:commit-after-write',
    ])
      expect(isCapabilityToken(t)).toBe(true);
    for (const t of ['', 'stores', 'contract', 'contract:', 'store:x', 'crash:Upper', 'network', 3, null])
      expect(isCapabilityToken(t)).toBe(false);
  });

  it('finds what a declaration lacks, unknown tokens included', () => {
    expect(
      missingCapabilities(['store', 'contract:TaskRecoveryStateV5', 'crash:commit-before-write'], ALL),
    ).toEqual([]);
    const none: Capabilities = { ...ALL, store: false, contracts: [], crashPoints: [] };
    expect(
      missingCapabilities(
        ['store', 'contract:TaskRecoveryStateV5', 'crash:commit-before-write', 'clock', 'network'],
        none,
      ),
    ).toEqual(['store', 'contract:TaskRecoveryStateV5', 'crash:commit-before-write', 'network']);
    expect(missingCapabilities(['contract'], ALL)).toEqual(['contract']);
  });

  it('checks the type of every declared capability', () => {
    expect(capabilitiesProblem(ALL)).toBeNull();
    expect(capabilitiesProblem(null)).toBe('"capabilities" must be an object');
    expect(capabilitiesProblem({ ...ALL, trace: 'yes' })).toBe('"capabilities.trace" must be a boolean');
    expect(capabilitiesProblem({ ...ALL, bundles: [1] })).toBe(
      '"capabilities.bundles" must be an array of strings ([] for none)',
    );
    // A required capability left out is named as missing (issue 24, finding 4).
    const { clock: _omitted, ...withoutClock } = ALL;
    expect(capabilitiesProblem(withoutClock)).toBe('"capabilities.clock" is missing: it must be a boolean');
    const { crashPoints: _none, ...withoutCrashPoints } = ALL;
    expect(capabilitiesProblem(withoutCrashPoints)).toBe(
      '"capabilities.crashPoints" is missing: it must be an array of strings ([] for none)',
    );
    expect(REQUIRED_CAPABILITIES).toEqual([
      'contracts',
      'bundles',
      'digest',
      'store',
      'liveness',
      'checkpoint',
      'trace',
      'clock',
      'crashPoints',
    ]);
  });

  it('reads an optional capability left out of hello as not declared, but not one of another type (D-GEN-60)', () => {
    expect(CAPABILITIES.filter((c) => 'optional' in c).map((c) => c.key)).toEqual([
      'run',
      'policy',
      'delegation',
      'context',
    ]);
    // A v1 declaration written before the optional capabilities existed is well-formed without them.
    const { policy: _p, delegation: _d, context: _c, ...v1 } = ALL;
    expect('run' in v1).toBe(false);
    expect(capabilitiesProblem(v1)).toBeNull();
    expect(missingCapabilities(['run', 'policy', 'delegation', 'context', 'clock'], v1)).toEqual([
      'run',
      'policy',
      'delegation',
      'context',
    ]);
    expect(missingCapabilities(['policy', 'delegation', 'context'], ALL)).toEqual([]);
    expect(missingCapabilities(['run'], { ...v1, run: true })).toEqual([]);
    expect(missingCapabilities(['run'], { ...v1, run: false })).toEqual(['run']);
    // Declared, each must still be a boolean.
    expect(capabilitiesProblem({ ...v1, run: 'yes' })).toBe('"capabilities.run" must be a boolean');
    expect(capabilitiesProblem({ ...v1, policy: 'yes' })).toBe('"capabilities.policy" must be a boolean');
    expect(capabilitiesProblem({ ...v1, delegation: null })).toBe(
      '"capabilities.delegation" must be a boolean',
    );
    expect(capabilitiesProblem({ ...v1, context: 1 })).toBe('"capabilities.context" must be a boolean');
  });
});

describe('declaredCapabilities', () => {
  it('lists the tokens a hello declares, in the order of the vocabulary, each as requires names it', () => {
    expect(declaredCapabilities(ALL)).toEqual([
      'contract:TaskRecoveryStateV5',
      'bundle:context-acquisition',
      'digest',
      'store',
      'liveness',
      'checkpoint',
      'trace',
      'clock',
      'crash:commit-before-write',
      'policy',
      'delegation',
      'context',
    ]);
    // Every token it lists is satisfied by the capabilities it was read from.
    expect(missingCapabilities(declaredCapabilities(ALL), ALL)).toEqual([]);
  });

  it('declares nothing for a false flag, an empty list or a member of the wrong type', () => {
    const none = { ...ALL, contracts: [], bundles: 'x', digest: false, store: 'yes', crashPoints: [1] };
    expect(declaredCapabilities(none as unknown as Capabilities)).toEqual([
      'liveness',
      'checkpoint',
      'trace',
      'clock',
      'policy',
      'delegation',
      'context',
    ]);
  });
});
