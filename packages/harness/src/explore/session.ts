// One exploration run: the steps of a command sequence sent to the implementation under test
// (one process, or several on one state location) and to two model worlds, each reply judged
// against what the worlds agree on, as a golden-case step is judged. The steps sent so far are
// the transcript: on a difference it is the golden case that shows it.
import { Refusal } from '@agent-contracts/protocol';
import { type Expectation, pointerGet, type Step, substituteVars, UnboundVariableError } from '../cases.js';
import { type Judgement, judgeStep } from '../compare/index.js';
import { HarnessDefect, HarnessError } from '../errors.js';
import type { Implementation } from '../implementation.js';
import { describeViolations } from '../transport/process.js';
import { describeViolation } from '../wire/message-schemas.js';
import { paramsViolation } from '../wire/request.js';
import { expectationOf, type ModelReply } from './expect.js';
import { ModelRefusedRequest, ModelWorld } from './model/world.js';

/** A step as a command builds it: a golden-case step without its expectation, on a process. */
export interface ExploreStep {
  readonly method: string;
  readonly params: unknown;
  /** Names to remember -> JSON Pointers into the reply; kept only where both worlds have a value. */
  readonly capture?: Readonly<Record<string, string>>;
  /** The implementation process that gets it (default 0; only store steps go elsewhere). */
  readonly proc?: number;
}

/** A step of the transcript: the golden-case step, and the process it went to. */
export interface SentStep extends Step {
  readonly proc?: number;
}

/** What happened to the processes between steps (docs/protocol.md#explore). */
export type ProcessEvent =
  | { readonly event: 'kill'; readonly proc: number }
  | { readonly event: 'freeze'; readonly proc: number; readonly step: ExploreStep }
  | { readonly event: 'thaw'; readonly proc: number };

/** A reply that differs from the model: the transcript up to it, and where it differs. */
export class ExploreDifference extends Error {
  constructor(
    readonly transcript: readonly (SentStep | ProcessEvent)[],
    readonly detail: string,
    readonly judgement: Judgement | null,
    /** The outcome as a case would end: `fail`, or `crash`/`timeout`/`error` for a transport failure. */
    readonly outcome: 'fail' | 'crash' | 'timeout' | 'error',
  ) {
    super(detail);
  }
}

/** The kit's own defect during exploration (a request of its own broke its schema, the worlds disagreed). */
export class ExploreDefect extends Error {}

/** The two model worlds' choices (docs/protocol.md#explore: what is never compared). */
const WORLDS = [
  { variant: 'a', leaseDurationMs: 300_000 },
  { variant: 'b', leaseDurationMs: 420_000 },
] as const;

function modelReply(world: ModelWorld, method: string, params: unknown, proc: number): ModelReply | null {
  try {
    const result = world.handle(method, (params ?? {}) as Record<string, unknown>, proc);
    return { result: JSON.parse(JSON.stringify(result ?? null)) as unknown };
  } catch (e) {
    if (e instanceof Refusal)
      return { refusal: e.code, data: JSON.parse(JSON.stringify({ ...e.data, code: e.code })) };
    if (e instanceof ModelRefusedRequest) return null;
    throw e;
  }
}

/** How a process is started again on the same state location after a kill. */
export type Restart = (proc: number) => Promise<Implementation>;

/** An exploration run over the implementation's processes and two model worlds. */
export class ExploreSession {
  readonly #procs: Implementation[];
  readonly #restart: Restart | null;
  readonly #timeoutMs: number;
  readonly #worlds: ModelWorld[];
  readonly #vars: Map<string, unknown>[];
  readonly #implVars = new Map<string, unknown>();
  readonly #frozen = new Map<number, { step: ExploreStep; expect: Expectation; reply: Promise<unknown> }>();
  readonly transcript: (SentStep | ProcessEvent)[] = [];
  /** What commands remember within a run (the last request of a kind, to send it again). */
  readonly memo = new Map<string, unknown>();
  /** Steps the model could not take as sent (not sent to the implementation). */
  skipped = 0;

  constructor(procs: Implementation[], options: { timeoutMs: number; startMs: number; restart?: Restart }) {
    this.#procs = procs;
    this.#restart = options.restart ?? null;
    this.#timeoutMs = options.timeoutMs;
    this.#worlds = WORLDS.map((w) => new ModelWorld(w.variant, w.leaseDurationMs, options.startMs));
    this.#vars = this.#worlds.map(() => new Map());
  }

  /** Whether a name was captured (in the model worlds: the implementation may lack it). */
  bound(name: string): boolean {
    return this.#vars.every((v) => v.has(name));
  }

  /**
   * What the model captured as `name` (its first world's value), for a command that builds a
   * document from the model's earlier replies (a ledger snapshot); undefined when not captured.
   */
  captured(name: string): unknown {
    return this.#vars[0]!.get(name);
  }

  /** How many processes the session may use. */
  get processes(): number {
    return this.#procs.length;
  }

  /** The model's side of a step: its expectation and the captures both worlds can make, or null. */
  #model(step: ExploreStep): { expect: Expectation; capture: Record<string, string> } | null {
    const proc = step.proc ?? 0;
    const replies: ModelReply[] = [];
    for (const [i, world] of this.#worlds.entries()) {
      let params: unknown;
      try {
        params = substituteVars(step.params, this.#vars[i]!);
      } catch (e) {
        if (e instanceof UnboundVariableError) throw new ExploreDefect(`${step.method}: ${e.message}`);
        throw e;
      }
      if (i === 0) {
        const violation = paramsViolation(step.method, params);
        if (violation)
          throw new ExploreDefect(
            `the model's ${step.method} request breaks its schema: ${describeViolation(violation)}`,
          );
      }
      const r = modelReply(world, step.method, params, proc);
      if (r === null) return null;
      replies.push(r);
    }
    const [a, b] = replies as [ModelReply, ModelReply];
    let expect: Expectation;
    try {
      expect = expectationOf(step.method, a, b);
    } catch (e) {
      throw new ExploreDefect((e as Error).message);
    }
    const capture: Record<string, string> = {};
    for (const [name, pointer] of Object.entries(step.capture ?? {})) {
      const values = replies.map((r) =>
        'result' in r
          ? pointerGet(r.result, pointer)
          : pointer === ''
            ? undefined
            : pointerGet(r.data, pointer),
      );
      if (values.some((v) => v === undefined)) continue;
      capture[name] = pointer;
      for (const [i, v] of values.entries()) this.#vars[i]!.set(name, v);
    }
    return { expect, capture };
  }

  #difference(detail: string, judgement: Judgement | null, outcome: ExploreDifference['outcome']): never {
    throw new ExploreDifference([...this.transcript], detail, judgement, outcome);
  }

  /** Send the implementation's side of a step and judge its reply; throws ExploreDifference. */
  async #judge(
    proc: number,
    step: ExploreStep,
    expect: Expectation,
    capture: Record<string, string>,
    label: string,
    pending?: Promise<unknown>,
  ) {
    const impl = this.#procs[proc]!;
    let reply: Awaited<ReturnType<Implementation['call']>>;
    try {
      reply = (await (pending ??
        impl.call(step.method, substituteVars(step.params, this.#implVars), {
          timeoutMs: this.#timeoutMs,
        }))) as typeof reply;
    } catch (e) {
      // The model's request was valid: one built from the implementation's replies is not.
      if (e instanceof HarnessDefect)
        this.#difference(
          `${label}: not sent: the request built from the implementation's earlier replies breaks its schema (${e.message})`,
          null,
          'fail',
        );
      if (e instanceof UnboundVariableError)
        this.#difference(`${label}: not sent: an earlier reply lacked "${e.variable}"`, null, 'fail');
      if (e instanceof HarnessError) {
        const outcome =
          e.code === 'IMPL_TIMEOUT'
            ? 'timeout'
            : ['IMPL_EXITED', 'IMPL_STDOUT_CLOSED', 'IMPL_NOT_RUNNING'].includes(e.code)
              ? 'crash'
              : 'error';
        this.#difference(`${label}: ${e.code}: ${e.message}`, null, outcome);
      }
      throw e;
    }
    const judgement = judgeStep(expect, reply);
    const source = 'result' in reply ? reply.result : 'error' in reply ? reply.error.data : undefined;
    let uncaptured: string | null = null;
    for (const [name, pointer] of Object.entries(capture)) {
      const value = pointerGet(source, pointer);
      if (value === undefined) uncaptured ??= `nothing at ${pointer} to capture as "${name}"`;
      else this.#implVars.set(name, value);
    }
    const seen = impl.takeViolations();
    if (seen.count) this.#difference(`${label}: ${describeViolations(seen)}`, judgement, 'error');
    const why = judgement?.detail ?? uncaptured;
    if (why !== null) this.#difference(`${label}: ${why}`, judgement, 'fail');
  }

  /** Run one step on the model worlds and the implementation; throws ExploreDifference. */
  async step(step: ExploreStep): Promise<void> {
    const proc = step.proc ?? 0;
    if (this.#freezeArmed && this.#freezeArmed.proc === proc && !this.#frozen.has(proc)) {
      const { after } = this.#freezeArmed;
      this.#freezeArmed = null;
      await this.freeze(proc, step);
      this.#thawAfter = after;
      return;
    }
    if (this.#frozen.has(proc)) await this.thaw(proc);
    else if (this.#thawAfter !== null && --this.#thawAfter <= 0) {
      this.#thawAfter = null;
      for (const p of [...this.#frozen.keys()]) await this.thaw(p);
    }
    const model = this.#model(step);
    if (model === null) {
      this.skipped++;
      return;
    }
    const sent: SentStep = {
      method: step.method,
      params: step.params,
      expect: model.expect,
      ...(Object.keys(model.capture).length ? { capture: model.capture } : {}),
      ...(proc ? { proc } : {}),
    };
    this.transcript.push(sent);
    await this.#judge(
      proc,
      step,
      model.expect,
      model.capture,
      `step ${this.transcript.filter((t) => !('event' in t)).length} (${step.method})`,
    );
    // One clock for every process: the harness owns time (docs/protocol.md#fault-matrix).
    if (step.method.startsWith('clock.')) await this.#syncClocks(proc);
  }

  /** The model's time, as every process must have it. */
  get now(): string {
    return new Date(this.#worlds[0]!.clock.now()).toISOString();
  }

  async #syncClocks(except: number): Promise<void> {
    for (const [i, impl] of this.#procs.entries()) {
      if (i === except || this.#frozen.has(i)) continue;
      try {
        await impl.request('clock.set', { now: this.now }, { timeoutMs: this.#timeoutMs });
      } catch (e) {
        this.#difference(`clock.set on process ${i}: ${(e as Error).message}`, null, 'error');
      }
    }
  }

  #freezeArmed: { proc: number; after: number } | null = null;
  #thawAfter: number | null = null;

  /** Freeze process `proc` at the next step sent to it, and thaw it `after` steps later. */
  freezeNext(proc: number, after: number): void {
    if (proc < this.#procs.length) this.#freezeArmed = { proc, after };
  }

  /**
   * SIGSTOP process `proc` and write `step` to its stdin while it is frozen: the request was
   * issued now, but is read (and judged by the model) only when the process is thawed.
   */
  async freeze(proc: number, step: ExploreStep): Promise<void> {
    const impl = this.#procs[proc]!;
    impl.pause();
    // SIGSTOP is delivered asynchronously: let it land before the request is written.
    await new Promise((r) => setTimeout(r, 30));
    const params = (() => {
      try {
        return substituteVars(step.params, this.#implVars);
      } catch {
        return undefined;
      }
    })();
    const reply =
      params === undefined
        ? Promise.reject(new UnboundVariableError('unbound', 'unknown'))
        : impl.call(step.method, params, { timeoutMs: this.#timeoutMs * 3 });
    reply.catch(() => {});
    this.#frozen.set(proc, { step: { ...step, proc }, expect: { result: null }, reply });
    this.transcript.push({ event: 'freeze', proc, step: { ...step, proc } });
  }

  /** SIGCONT process `proc`: its frozen request is taken now, after every step sent meanwhile. */
  async thaw(proc: number): Promise<void> {
    const frozen = this.#frozen.get(proc);
    if (!frozen) return;
    this.#frozen.delete(proc);
    this.#procs[proc]!.resume();
    this.transcript.push({ event: 'thaw', proc });
    const model = this.#model(frozen.step);
    if (model === null) {
      this.skipped++;
      await frozen.reply.catch(() => {});
      return;
    }
    await this.#judge(
      proc,
      frozen.step,
      model.expect,
      model.capture,
      `the frozen request of process ${proc} (${frozen.step.method})`,
      frozen.reply,
    );
  }

  /** kill -9 process `proc` and start it again on the same state location. */
  async kill(proc: number): Promise<void> {
    if (!this.#restart) throw new ExploreDefect('no restart');
    if (this.#frozen.has(proc)) await this.thaw(proc);
    const old = this.#procs[proc]!;
    await old.kill();
    this.#procs[proc] = await this.#restart(proc);
    await this.#procs[proc]!.request('clock.set', { now: this.now }, { timeoutMs: this.#timeoutMs });
    for (const w of this.#worlds) w.restart(proc);
    this.transcript.push({ event: 'kill', proc });
  }

  /** Thaw every frozen process (the end of a run). */
  async settle(): Promise<void> {
    for (const proc of [...this.#frozen.keys()]) await this.thaw(proc);
  }
}
