// Golden cases: data files under conformance/cases/, each a list of cases with stable ids. A
// case's steps are protocol requests with an expected outcome; `{"$fixture": "..."}` and
// `{"$bundle": "..."}` in params stand for the content of a file of conformance/fixtures or
// conformance/bundles, so documents are never copied into the cases.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CAPABILITY_TOKEN, isCapabilityToken } from '@agent-contracts/protocol';
import { REQUIREMENT_ID } from './requirements/parse.js';
import { walkFiles, walkProblemLines } from './walk.js';

/** How strongly the spec requires what a case checks. */
export type Level = 'MUST' | 'SHOULD';

/** What a step expects. Exactly one member. */
export type Expectation =
  /** `validate`/`validateBundle`: the document or bundle is accepted. */
  | { readonly valid: true }
  /** `validate`/`validateBundle`: refused, with (at least) this issue. */
  | { readonly issue: { readonly code: string; readonly path: string } }
  /** The result deep-equals this value. */
  | { readonly result: unknown }
  /**
   * The result contains this value: objects match when every member given here matches (extra
   * members in the result are allowed), arrays when they have the same length and match element
   * by element, anything else when equal.
   */
  | { readonly match: unknown }
  /**
   * The request is refused with a JSON-RPC error whose `data.code` is this spec code; with
   * `data`, the refusal's `data` also contains that value, as `match` says (the members the spec
   * requires a refusal to carry: a store's `currentFence`, a trace's `step`, a checkpoint's
   * `requiredActions`).
   */
  | { readonly error: string; readonly data?: unknown };

/**
 * Where a request sent on purpose breaks its params schema (docs/spec/decisions.md D-GEN-10): the
 * first violation the harness finds, which must be exactly this one (D-GEN-30).
 */
export interface MalformedRequest {
  /** JSON Pointer into the params of the value that breaks the schema (a missing or extra member: its own pointer). */
  readonly pointer: string;
  /** The JSON Schema keyword it breaks (`required`, `type`, `minimum`, `pattern`, ...). */
  readonly keyword: string;
}

/** One request of a case and what it must produce. */
export interface Step {
  readonly method: string;
  /** Request params; `{"$var": "name"}` anywhere stands for a value captured by an earlier step. */
  readonly params?: unknown;
  /** Set when the request breaks its params schema on purpose, to see it refused. */
  readonly malformed?: MalformedRequest;
  readonly expect: Expectation;
  /**
   * Values to remember for later steps of the same case: name -> JSON Pointer into this step's
   * result (or, for a refusal, into its error `data`).
   */
  readonly capture?: Readonly<Record<string, string>>;
}

/** One golden case. */
export interface Case {
  /** Stable id: never changes, never reused (baselines and diffs key on it). */
  readonly id: string;
  readonly title: string;
  /** The gate whose page specifies the behaviour. */
  readonly gate: string;
  /** The contract (or bundle kind, or `jcs`) the case is about, for the summary. */
  readonly subject: string;
  /** `docs/spec/<page>.md#<anchor>` of the requirement. */
  readonly spec: string;
  /**
   * Ids of the requirements the case checks (`TCW-017`, conformance/requirements.json and
   * docs/coverage.md); at least one.
   */
  readonly requirements: readonly string[];
  /** The strongest level among its requirements (D-GEN-41). */
  readonly level: Level;
  /** Capability tokens: `contract:<Name>`, `bundle:<kind>`, `digest`, `store`, `liveness`, ... */
  readonly requires: readonly string[];
  readonly steps: readonly Step[];
}

/** A case file: `{ "cases": [...] }`. */
export interface CaseFile {
  readonly $comment?: string;
  readonly cases: readonly Case[];
}

/** A case with where it came from. */
export interface LoadedCase extends Case {
  /** Path of its file, relative to the conformance directory. */
  readonly file: string;
}

const ID = /^[a-z][a-z0-9-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/;

/** Every problem with a case file's shape, as readable strings; empty when well-formed. */
export function lintCases(file: string, data: unknown, seen: Set<string>): string[] {
  const problems: string[] = [];
  const cases = (data as CaseFile | null)?.cases;
  if (!Array.isArray(cases) || cases.length === 0) return [`${file}: needs a non-empty "cases" array`];
  for (const [i, c] of cases.entries()) {
    const at = `${file} case ${i + 1} (${(c as Case)?.id ?? 'no id'})`;
    if (!c || typeof c !== 'object') {
      problems.push(`${at}: not an object`);
      continue;
    }
    if (typeof c.id !== 'string' || !ID.test(c.id)) problems.push(`${at}: id must match ${ID}`);
    else if (seen.has(c.id)) problems.push(`${at}: duplicate id`);
    else seen.add(c.id);
    for (const key of ['title', 'gate', 'subject', 'spec'] as const) {
      if (typeof c[key] !== 'string' || !c[key]) problems.push(`${at}: "${key}" must be a non-empty string`);
    }
    if (typeof c.spec === 'string' && !/^docs\/spec\/[a-z0-9-]+\.md#[a-z0-9-]+$/.test(c.spec)) {
      problems.push(`${at}: "spec" must be docs/spec/<page>.md#<anchor>`);
    }
    if (c.level !== 'MUST' && c.level !== 'SHOULD') problems.push(`${at}: "level" must be MUST or SHOULD`);
    problems.push(...lintRequirementIds(at, c.requirements));
    if (
      !Array.isArray(c.requires) ||
      c.requires.some((r: unknown) => typeof r !== 'string' || !isCapabilityToken(r))
    ) {
      problems.push(`${at}: "requires" must list capability tokens (${CAPABILITY_TOKEN})`);
    }
    if (!Array.isArray(c.steps) || c.steps.length === 0) {
      problems.push(`${at}: needs at least one step (a case that observes nothing cannot pass)`);
      continue;
    }
    for (const [j, s] of c.steps.entries()) {
      if (!s || typeof s.method !== 'string' || !s.method)
        problems.push(`${at} step ${j + 1}: needs a method`);
      const keys = s?.expect && typeof s.expect === 'object' ? Object.keys(s.expect) : [];
      const kinds = keys.filter((k) => !(k === 'data' && keys.includes('error')));
      if (kinds.length !== 1 || !['valid', 'issue', 'result', 'match', 'error'].includes(kinds[0]!)) {
        problems.push(
          `${at} step ${j + 1}: "expect" needs exactly one of valid, issue, result, match, error (error may add data)`,
        );
      } else if (kinds[0] === 'error' && typeof (s.expect as { error: unknown }).error !== 'string') {
        problems.push(`${at} step ${j + 1}: "expect.error" is the spec code of the refusal, a string`);
      }
      if (s?.malformed !== undefined) {
        const m = s.malformed as Partial<MalformedRequest> | null;
        const ok =
          m &&
          typeof m === 'object' &&
          Object.keys(m).length === 2 &&
          typeof m.pointer === 'string' &&
          /^(\/.*)?$/.test(m.pointer) &&
          typeof m.keyword === 'string' &&
          /^[A-Za-z]+$/.test(m.keyword);
        if (!ok)
          problems.push(
            `${at} step ${j + 1}: "malformed" is { pointer: <JSON Pointer>, keyword: <keyword> }`,
          );
      }
      if (s?.capture !== undefined) {
        const ok =
          s.capture &&
          typeof s.capture === 'object' &&
          Object.entries(s.capture).every(
            ([k, v]) => /^[A-Za-z][A-Za-z0-9_]*$/.test(k) && typeof v === 'string' && /^(\/.*)?$/.test(v),
          );
        if (!ok) problems.push(`${at} step ${j + 1}: "capture" maps names to JSON Pointers`);
      }
    }
  }
  return problems;
}

/** Problems with a case's or scenario's `requirements` list: a non-empty, duplicate-free list of ids. */
export function lintRequirementIds(at: string, ids: unknown): string[] {
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.some((r) => typeof r !== 'string' || !REQUIREMENT_ID.test(r)) ||
    new Set(ids).size !== ids.length
  )
    return [
      `${at}: "requirements" must list the ids of the requirements it checks (e.g. TCW-017), each once`,
    ];
  return [];
}

/** Thrown when the case corpus itself is broken (a harness error, exit code 2). */
export class CaseCorpusError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the conformance cases are malformed:\n  ${problems.slice(0, 20).join('\n  ')}`);
    this.name = 'CaseCorpusError';
  }
}

/** Load and lint every case file under `<conformanceDir>/cases`, sorted by id. */
export function loadCases(conformanceDir: string): LoadedCase[] {
  const walk = walkFiles(join(conformanceDir, 'cases'), { suffix: '.json' });
  const seen = new Set<string>();
  const problems: string[] = walkProblemLines('cases', walk);
  const out: LoadedCase[] = [];
  for (const { path: abs } of walk.files) {
    const file = relative(conformanceDir, abs);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(abs, 'utf8'));
    } catch (e) {
      problems.push(`${file}: not JSON (${(e as Error).message})`);
      continue;
    }
    const p = lintCases(file, data, seen);
    problems.push(...p);
    if (!p.length) for (const c of (data as CaseFile).cases) out.push({ ...c, file });
  }
  if (problems.length) throw new CaseCorpusError(problems);
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const refCache = new Map<string, unknown>();

/**
 * Replace `{"$fixture": p}` / `{"$bundle": p}` with the referenced file's content. Files are read
 * once per process; the values are shared, so callers must not mutate them.
 */
export function resolveRefs(value: unknown, conformanceDir: string): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, conformanceDir));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && (keys[0] === '$fixture' || keys[0] === '$bundle')) {
    const dir = keys[0] === '$fixture' ? 'fixtures' : 'bundles';
    const rel = String((value as Record<string, unknown>)[keys[0]]);
    if (rel.includes('..') || rel.startsWith('/'))
      throw new CaseCorpusError([`reference ${JSON.stringify(rel)} leaves the conformance directory`]);
    const key = join(conformanceDir, dir, rel);
    let parsed = refCache.get(key);
    if (parsed === undefined) {
      parsed = JSON.parse(readFileSync(containedFile(join(conformanceDir, dir), rel), 'utf8')) as unknown;
      refCache.set(key, parsed);
    }
    return parsed;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, conformanceDir)]));
}

/** Longest referenced file, in bytes: fixtures and bundles are small documents. */
const MAX_REFERENCED_BYTES = 16 * 1024 * 1024;

/**
 * The real path of `rel` under `root`, refused unless it stays inside the real `root` after every
 * symbolic link is resolved and is a regular file of bounded size: a case file cannot send the
 * implementation anything from outside the conformance data.
 */
function containedFile(root: string, rel: string): string {
  const refuse = (why: string) => new CaseCorpusError([`reference ${JSON.stringify(rel)} ${why}`]);
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(join(root, rel));
  } catch (e) {
    throw refuse(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!real.startsWith(realRoot + sep))
    throw refuse('leaves the conformance directory through a symbolic link');
  const stat = statSync(real);
  if (!stat.isFile()) throw refuse('is not a regular file');
  if (stat.size > MAX_REFERENCED_BYTES) throw refuse(`is larger than ${MAX_REFERENCED_BYTES} bytes`);
  return real;
}

/** Thrown when a step uses a `$var` no earlier step captured. */
export class UnboundVariableError extends Error {
  constructor(
    message: string,
    /** The name no earlier step captured. */
    readonly variable: string,
  ) {
    super(message);
  }
}

/** Replace every `{"$var": name}` with the captured value. */
export function substituteVars(value: unknown, vars: ReadonlyMap<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => substituteVars(v, vars));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$var') {
    const name = String((value as { $var: unknown }).$var);
    if (!vars.has(name)) throw new UnboundVariableError(`no earlier step captured "${name}"`, name);
    return vars.get(name);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteVars(v, vars)]));
}

/** Resolve a JSON Pointer (RFC 6901) in a value; `undefined` when it does not exist. */
export function pointerGet(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let node: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** Whether `actual` contains `expected` (see the `match` expectation); returns the first mismatch path, or null. */
export function partialMismatch(expected: unknown, actual: unknown, path = ''): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return path || '/';
    for (const [i, e] of expected.entries()) {
      const m = partialMismatch(e, actual[i], `${path}/${i}`);
      if (m !== null) return m;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return path || '/';
    for (const [k, e] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, k)) return `${path}/${k}`;
      const m = partialMismatch(e, (actual as Record<string, unknown>)[k], `${path}/${k}`);
      if (m !== null) return m;
    }
    return null;
  }
  return Object.is(expected, actual) || expected === actual ? null : path || '/';
}
