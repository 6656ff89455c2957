// Expected values: one case being recorded in both worlds, each step's expectation the members
// the worlds agree on (projected to a summary shape), with `capture` / `$var` between steps.
import {
  paramsViolation,
  pointerGet,
  type Step,
  substituteVars as substitute,
} from '@agent-contracts/harness';
import { agreed } from '@agent-contracts/harness/explore';
import { BEFORE_THE_READ, World } from './world.ts';

// Expected values

/** A projection: `true` keeps a member whole, an object keeps the listed members of it. */
export type Shape = true | { readonly [key: string]: Shape };

export function project(value: unknown, shape: Shape): unknown {
  if (shape === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => project(v, shape));
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(shape)) {
    if (Object.hasOwn(value, k)) out[k] = project((value as Record<string, unknown>)[k], s);
  }
  return out;
}

/** What a read after a step checks unless a case asks for the whole envelope. */
export const READ_SUMMARY: Shape = {
  status: true,
  fence: true,
  envelope: {
    commitKind: true,
    lifecycleRevision: true,
    owner: {
      status: true,
      sessionDigest: true,
      ownerGeneration: true,
      leaseRevision: true,
      revocationEpoch: true,
      reopenGeneration: true,
    },
    operations: { unresolved: { operationId: true, phase: true }, settledTotal: true },
  },
};
/** What a write result checks unless a case asks for all of it. */
export const WRITE_SUMMARY: Shape = {
  status: true,
  fence: true,
  writeContext: { stateSequence: true, writerGeneration: true, ownerStatus: true, holderSession: true },
};
export const HISTORY_SUMMARY: Shape = {
  sequence: true,
  writerGeneration: true,
  lifecycleRevision: true,
  commitKind: true,
  stateDigest: true,
};

/** `committed`, `replayed`, `semantic-noop`, `found`, `missing`, `ok`, or a refusal code. */
export type Want = string;

interface StepOptions {
  readonly want?: Want;
  readonly capture?: Record<string, string>;
  readonly shape?: Shape;
}

/** One case being recorded: every step runs in both worlds as it is added. */
export class Scenario {
  readonly steps: Step[] = [];
  readonly worlds: [World, World];
  readonly vars: [Map<string, unknown>, Map<string, unknown>] = [new Map(), new Map()];
  constructor(
    readonly id: string,
    projectRoot: string,
  ) {
    this.worlds = [new World('a', 300_000, projectRoot), new World('b', 90_000, projectRoot)];
  }

  has(name: string): boolean {
    return this.vars[0].has(name);
  }

  /** Run one request in both worlds and record it with the expectation they agree on. */
  async step(method: string, params: Record<string, unknown>, options: StepOptions = {}): Promise<unknown> {
    const [a, b] = await Promise.all(
      this.worlds.map((w, i) =>
        w.call(method, substitute(params, this.vars[i as 0 | 1]) as Record<string, unknown>),
      ),
    );
    const where = `${this.id} step ${this.steps.length} (${method})`;
    if (!a || !b) throw new Error(where);
    const want = options.want ?? 'ok';
    let expect: Step['expect'];
    if ('code' in a || 'code' in b) {
      if (!('code' in a) || !('code' in b) || a.code !== b.code)
        throw new Error(`${where}: the two worlds disagree: ${JSON.stringify([a, b]).slice(0, 400)}`);
      if (want !== a.code) throw new Error(`${where}: wanted ${want}, the engine refused with ${a.code}`);
      // docs/protocol.md, store: a refusal's data carries `currentFence`, the fence the store read
      // (absent only for a refusal before the read); compared where both worlds agree (the nonces
      // are each store's own), and only for codes the commit algorithm gives after its read.
      const fence = agreed(
        (a.data as { currentFence?: unknown }).currentFence,
        (b.data as { currentFence?: unknown }).currentFence,
      );
      expect =
        fence === undefined || BEFORE_THE_READ.has(a.code)
          ? { error: a.code }
          : { error: a.code, data: { currentFence: fence } };
    } else {
      if (/^[A-Z][A-Z_]+$/.test(want))
        throw new Error(`${where}: wanted ${want}, got ${JSON.stringify(a.result).slice(0, 300)}`);
      const status = (a.result as { status?: unknown } | null)?.status;
      if (want !== 'ok' && status !== want)
        throw new Error(`${where}: wanted ${want}, got status ${String(status)}`);
      expect = method.startsWith('clock.')
        ? { result: a.result }
        : { match: project(agreed(a.result, b.result) ?? {}, options.shape ?? true) };
    }
    // A request that breaks its params schema is sent on purpose only to be refused (D-GEN-10);
    // the case says where it breaks it, and the harness checks that it breaks it exactly there.
    const broken = paramsViolation(method, substitute(params, this.vars[0])) ?? null;
    if (broken && !('error' in expect))
      throw new Error(
        `${where}: the request breaks ${broken.schema} at ${broken.pointer} but is not refused`,
      );
    const step: Step = {
      method,
      params,
      ...(broken ? { malformed: { pointer: broken.pointer, keyword: broken.keyword } } : {}),
      expect,
    };
    if (options.capture) {
      for (const [name, pointer] of Object.entries(options.capture)) {
        for (const [i, r] of [a, b].entries()) {
          const v = pointerGet('code' in r ? r.data : r.result, pointer);
          if (v === undefined) throw new Error(`${where}: nothing at ${pointer} to capture as ${name}`);
          this.vars[i as 0 | 1].set(name, v);
        }
      }
      this.steps.push({ ...step, capture: options.capture });
    } else this.steps.push(step);
    return 'code' in a ? a.data : a.result;
  }
}
