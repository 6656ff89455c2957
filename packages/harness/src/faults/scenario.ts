// Fault scenarios are data: conformance/faults/<group>/<name>.json, one scenario per file, each
// naming the fault it injects, its parameters, its steps and its pass criterion. The harness
// drives them itself (see ./kinds): the `fault` member names the driver routine, `parameters`
// tune it, and `steps` / `passCriterion` say in words exactly what the routine does and checks.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CAPABILITY_TOKEN, isCapabilityToken } from '@agent-contracts/protocol';
import { type Level, lintRequirementIds } from '../cases.js';
import { walkFiles, walkProblemLines } from '../walk.js';

/** One fault scenario. */
export interface FaultScenario {
  /** Stable id, `faults/<group>/<name>`, equal to its file path under conformance/. */
  readonly id: string;
  readonly title: string;
  /** The gate whose page specifies the behaviour. */
  readonly gate: string;
  /** For the summary: always `fault-matrix`. */
  readonly subject: string;
  /** `docs/spec/<page>.md#<anchor>` of the requirement. */
  readonly spec: string;
  /** Ids of the requirements the scenario checks (docs/coverage.md); at least one. */
  readonly requirements: readonly string[];
  /** The strongest level among its requirements (D-GEN-41). */
  readonly level: Level;
  /** Capability tokens, as for cases (`store`, `liveness`, `clock`, `crash:<point>`, ...). */
  readonly requires: readonly string[];
  /** The driver routine (see {@link FAULT_KINDS}). */
  readonly fault: string;
  /** Research anchors (fault-anchors F1-F15, agent-anchors part (c) rows) the scenario covers. */
  readonly anchors: readonly string[];
  /** Knobs of the routine (counts, rounds, clock jumps). */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** What the harness does, in order. */
  readonly steps: readonly string[];
  /** What must hold for `pass`; anything else is `fail`. */
  readonly passCriterion: string;
}

/** A scenario with where it came from. */
export interface LoadedFaultScenario extends FaultScenario {
  readonly file: string;
}

const ID = /^faults\/[a-z][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;

/** Every problem with a scenario file, as readable strings; empty when well-formed. */
export function lintFaultScenario(
  file: string,
  data: unknown,
  kinds: ReadonlySet<string>,
  seen: Set<string>,
): string[] {
  const problems: string[] = [];
  const s = data as Partial<FaultScenario> | null;
  if (!s || typeof s !== 'object' || Array.isArray(s)) return [`${file}: not an object`];
  const at = `${file} (${s.id ?? 'no id'})`;
  if (typeof s.id !== 'string' || !ID.test(s.id)) problems.push(`${at}: id must match ${ID}`);
  else {
    if (seen.has(s.id)) problems.push(`${at}: duplicate id`);
    seen.add(s.id);
    if (`${s.id}.json` !== file.replace(/\\/g, '/'))
      problems.push(`${at}: the file must be conformance/${s.id}.json`);
  }
  for (const key of ['title', 'gate', 'subject', 'spec', 'fault', 'passCriterion'] as const)
    if (typeof s[key] !== 'string' || !s[key]) problems.push(`${at}: "${key}" must be a non-empty string`);
  if (typeof s.spec === 'string' && !/^docs\/spec\/[a-z0-9-]+\.md#[a-z0-9-]+$/.test(s.spec))
    problems.push(`${at}: "spec" must be docs/spec/<page>.md#<anchor>`);
  if (s.level !== 'MUST' && s.level !== 'SHOULD') problems.push(`${at}: "level" must be MUST or SHOULD`);
  problems.push(...lintRequirementIds(at, s.requirements));
  if (!Array.isArray(s.requires) || s.requires.some((r) => typeof r !== 'string' || !isCapabilityToken(r)))
    problems.push(`${at}: "requires" must list capability tokens (${CAPABILITY_TOKEN})`);
  if (typeof s.fault === 'string' && !kinds.has(s.fault))
    problems.push(`${at}: unknown fault "${s.fault}" (the harness has: ${[...kinds].join(', ')})`);
  if (!Array.isArray(s.anchors) || s.anchors.some((a) => typeof a !== 'string'))
    problems.push(`${at}: "anchors" must be an array of strings`);
  if (!s.parameters || typeof s.parameters !== 'object' || Array.isArray(s.parameters))
    problems.push(`${at}: "parameters" must be an object`);
  if (!Array.isArray(s.steps) || s.steps.length === 0 || s.steps.some((x) => typeof x !== 'string' || !x))
    problems.push(`${at}: "steps" must be a non-empty array of strings`);
  return problems;
}

/** Thrown when the scenario corpus itself is broken (a harness error, exit code 2). */
export class FaultCorpusError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the fault scenarios are malformed:\n  ${problems.slice(0, 20).join('\n  ')}`);
    this.name = 'FaultCorpusError';
  }
}

/** Load and lint every scenario under `<conformanceDir>/faults`, sorted by id. */
export function loadFaultScenarios(
  conformanceDir: string,
  kinds: ReadonlySet<string>,
): LoadedFaultScenario[] {
  const walk = walkFiles(join(conformanceDir, 'faults'), { suffix: '.json' });
  const seen = new Set<string>();
  const problems: string[] = walkProblemLines('faults', walk);
  const out: LoadedFaultScenario[] = [];
  for (const { path: abs } of walk.files) {
    const file = relative(conformanceDir, abs);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(abs, 'utf8'));
    } catch (e) {
      problems.push(`${file}: not JSON (${(e as Error).message})`);
      continue;
    }
    const p = lintFaultScenario(file, data, kinds, seen);
    problems.push(...p);
    if (!p.length) out.push({ ...(data as FaultScenario), file });
  }
  if (problems.length) throw new FaultCorpusError(problems);
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
