// The commands of an exploration (fast-check's `fc.commands` drives them through
// `fc.asyncModelRun`): each builds its steps from the run's context when it runs, sends them to
// the session (the implementation and the model worlds) and throws on the first difference.
import fc from 'fast-check';
import type { ExploreSession, ExploreStep } from './session.js';

/** What one run's commands share: the keys they write under, fresh for every run. */
export interface RunContext {
  /** The run's ordinal in the exploration (shrinking runs count too). */
  readonly run: number;
  readonly projectRootIdentity: string;
  readonly taskId: string;
  /** A run id of this run (policy, run control). */
  readonly runId: string;
  /** The clock origin of the run, in ms. */
  readonly t0: number;
}

/** One command of a sequence. */
export type ExploreCommand = fc.AsyncCommand<RunContext, ExploreSession, false>;

/** A command that sends what `build` makes of the context; its label names it in a counterexample. */
export function command(
  label: string,
  build: (ctx: RunContext, session: ExploreSession) => ExploreStep | readonly LazyStep[],
): ExploreCommand {
  return phases(label, build);
}

/**
 * A command of several phases: each is built when the one before it was sent, so that it can
 * build its steps from what the earlier phases captured (a plan's sources, read next).
 */
export function phases(
  label: string,
  ...builds: ((ctx: RunContext, session: ExploreSession) => ExploreStep | readonly LazyStep[])[]
): ExploreCommand {
  return {
    check: () => true,
    async run(ctx, session) {
      for (const build of builds) {
        const steps = build(ctx, session);
        for (const s of Array.isArray(steps) ? steps : [steps as ExploreStep]) {
          const step = typeof s === 'function' ? s() : s;
          if (step) await session.step(step);
        }
      }
    },
    toString: () => label,
  };
}

/**
 * A step, or what builds it just before it is sent (after the steps before it bound their
 * captures; null: nothing to send, an earlier step did not bind what it needs).
 */
export type LazyStep = ExploreStep | (() => ExploreStep | null);

/** A command that acts on the session itself (a kill, a freeze). */
export function action(
  label: string,
  act: (ctx: RunContext, session: ExploreSession) => Promise<void>,
): ExploreCommand {
  return { check: () => true, run: (ctx, session) => act(ctx, session), toString: () => label };
}

/** Everything exploration knows of one capability. */
export interface CapabilityExplorer {
  /** The capability token (`store`, `liveness`, ...); the report line is `explore/<name>`. */
  readonly name: string;
  readonly gate: string;
  readonly subject: string;
  /** `docs/spec/<page>.md#<anchor>` of what its sequences check. */
  readonly spec: string;
  /** Capability tokens an implementation must declare. */
  readonly requires: readonly string[];
  /** The steps every run starts with (the clock, a fresh turn, no trace). */
  setup(ctx: RunContext): readonly ExploreStep[];
  /** The command arbitraries. */
  commands(processes: number): fc.Arbitrary<ExploreCommand>[];
  /** Implementation processes its sequences may use (several on one state location: the store). */
  readonly processes?: number;
}

/** The harness's clock origin of exploration (as the fault matrix's T0). */
export const EXPLORE_T0 = Date.parse('2026-11-30T05:41:12.000Z');

export const iso = (ms: number): string => new Date(ms).toISOString();

/** Clock moves through the injectable clock: forwards, backwards, and jumps to a time near T0. */
export function clockCommands(): fc.Arbitrary<ExploreCommand>[] {
  return [
    fc
      .constantFrom(
        1,
        999,
        1000,
        60_000,
        119_999,
        120_000,
        299_999,
        300_000,
        1_800_000,
        2_100_000,
        -1000,
        -300_000,
      )
      .map((ms) => command(`clock.advance ${ms}`, () => ({ method: 'clock.advance', params: { ms } }))),
    fc.integer({ min: -3600, max: 7200 }).map((s) =>
      command(`clock.set T0${s >= 0 ? '+' : ''}${s}s`, (ctx) => ({
        method: 'clock.set',
        params: { now: iso(ctx.t0 + s * 1000) },
      })),
    ),
  ];
}

/** A SHA-256 hex string named by a small label (distinct labels, distinct digests). */
export function hex(label: string): string {
  // FNV-1a expanded to 64 hex digits: enough to tell labels apart, no crypto needed.
  let out = '';
  for (let round = 0; out.length < 64; round++) {
    let h = 0x811c9dc5 ^ round;
    for (const ch of `${label}:${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}
