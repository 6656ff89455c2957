// The JSON-RPC messages of a run, as they crossed the pipes (`conform --wire`): every line the
// harness wrote to an implementation's stdin and every line it read from its stdout, each with
// the case or scenario it belongs to, the step, the direction and the time. Everything the
// implementation sent is untrusted: each message is cut to a bound (with a marker), an item keeps
// a bounded number of messages, the whole log a bounded number of bytes, and nothing a tap sees
// can throw into the transport. The file is written to a temporary file and renamed, so it is
// whole or absent.
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Outcome } from './runner.js';
import { truncated } from './text.js';

/** What the transport tells a tap (transport/process.ts): one line each way, as it crossed. */
export interface WireTap {
  /** A request the harness wrote to the process with operating-system id `pid`. */
  sent(pid: number | undefined, id: number, line: string): void;
  /** A line read from the process's stdout; `id` is the numeric id of a response, else null. */
  received(pid: number | undefined, id: number | null, line: string): void;
}

/** A line of the wire log. */
export interface WireMessageLine {
  readonly type: 'message';
  /** The case or fault scenario the message belongs to; null outside any (a session's start). */
  readonly item: string | null;
  /**
   * The step (from 1) of the case whose request this is or answers; for a fault scenario, the
   * request's number within the scenario. Null for a line that answers no request of the harness.
   */
  readonly step: number | null;
  /** `sent`: harness to implementation (stdin); `received`: implementation to harness (stdout). */
  readonly direction: 'sent' | 'received';
  /** When it crossed (ISO 8601). */
  readonly at: string;
  /** The operating-system id of the process. */
  readonly pid: number | null;
  /** The line as it crossed, without its line feed; cut to {@link WIRE_LIMITS}.messageChars. */
  readonly text: string;
  /** How many characters were cut from `text` (absent when it is whole). */
  readonly cut?: number;
}

/** Written in place of the messages of an item past {@link WIRE_LIMITS}.itemMessages. */
export interface WireOmittedLine {
  readonly type: 'omitted';
  readonly item: string | null;
  /** How many messages of the item are not in the log. */
  readonly messages: number;
  readonly why: string;
}

/** The first line of a wire log. */
export interface WireHeaderLine {
  readonly type: 'wire';
  readonly wireVersion: 1;
  /** `failing`: the messages of the items that did not pass (and those outside any item); `all`. */
  readonly recorded: 'failing' | 'all';
  readonly limits: typeof WIRE_LIMITS;
}

export type WireLine = WireHeaderLine | WireMessageLine | WireOmittedLine;

/** The bounds of a wire log. */
export const WIRE_LIMITS = {
  /** Characters of one message kept; the rest is cut with a marker. */
  messageChars: 8192,
  /** Messages kept per case or scenario (and outside any). */
  itemMessages: 400,
  /** Bytes of the whole log (JSONL) kept; items past it are counted as omitted. */
  totalBytes: 32 * 1024 * 1024,
} as const;

/** The outcomes whose items `--wire` keeps without `--wire-all`. */
const PASSING: ReadonlySet<Outcome> = new Set(['pass', 'not-applicable']);

interface ItemBuffer {
  lines: WireMessageLine[];
  omitted: number;
}

/** One session's view of the log: its processes' tap, and the item and step it is on. */
export interface WireSession {
  readonly tap: WireTap;
  /** The session starts a case or scenario (messages are its own until the next `begin`). */
  begin(item: string | null): void;
  /** The case is at this step (index from 0, as the runner counts). */
  step(index: number): void;
}

/**
 * The messages of a run, kept per case or scenario until its outcome is known (`finish`): those
 * of items that did not pass, or of all with `all`.
 *
 * @example
 * const log = new WireLog({ all: false });
 * const s = log.session();
 * // startSubprocess({ ..., wire: s.tap }); runSuite(..., { onCaseStart: (c) => s.begin(c.id) })
 * log.finish(result);
 * log.write('run.wire.jsonl');
 */
export class WireLog {
  readonly all: boolean;
  #open = new Map<string | null, ItemBuffer>();
  #kept: string[] = [];
  #bytes = 0;

  constructor(options: { all: boolean }) {
    this.all = options.all;
    this.#kept.push(
      JSON.stringify({
        type: 'wire',
        wireVersion: 1,
        recorded: this.all ? 'all' : 'failing',
        limits: WIRE_LIMITS,
      } satisfies WireHeaderLine),
    );
  }

  /** A session whose item is set as it goes (a golden session: one case after another). */
  session(): WireSession {
    let item: string | null = null;
    let step: number | null = null;
    /** Per process and request id, the step the request was sent at. */
    const steps = new Map<string, number | null>();
    const requests = new Map<string | null, number>();
    const record = (
      direction: 'sent' | 'received',
      pid: number | undefined,
      s: number | null,
      line: string,
    ) => this.#record(item, direction, pid, s, line);
    return {
      tap: {
        sent: (pid, id, line) => {
          try {
            // A fault scenario has no steps: its requests are numbered.
            const n = step ?? (requests.get(item) ?? 0) + 1;
            if (step === null) requests.set(item, n);
            steps.set(`${pid}:${id}`, n);
            if (steps.size > 4096) steps.delete(steps.keys().next().value as string);
            record('sent', pid, n, line);
          } catch {}
        },
        received: (pid, id, line) => {
          try {
            const key = `${pid}:${id}`;
            const s = id === null ? null : (steps.get(key) ?? null);
            steps.delete(key);
            record('received', pid, s, line);
          } catch {}
        },
      },
      begin: (next) => {
        item = next;
        step = null;
      },
      step: (index) => {
        step = index + 1;
      },
    };
  }

  /** A session for one fault scenario: every message of its processes is the scenario's. */
  scenario(id: string): WireTap {
    const s = this.session();
    s.begin(id);
    return s.tap;
  }

  #record(
    item: string | null,
    direction: 'sent' | 'received',
    pid: number | undefined,
    step: number | null,
    line: string,
  ): void {
    const buffer = this.#open.get(item) ?? { lines: [], omitted: 0 };
    this.#open.set(item, buffer);
    if (buffer.lines.length >= WIRE_LIMITS.itemMessages) {
      buffer.omitted++;
      return;
    }
    const text = truncated(line, WIRE_LIMITS.messageChars);
    const cut = line.length - text.length + (text.length < line.length ? 1 : 0);
    buffer.lines.push({
      type: 'message',
      item,
      step,
      direction,
      at: new Date().toISOString(),
      pid: pid ?? null,
      text,
      ...(text === line ? {} : { cut }),
    });
    // Messages outside any item (a session's hello, its shutdown) are kept as they come.
    if (item === null) this.#flush(null, true);
  }

  /** The item ended: keep its messages when it did not pass (or with `all`), else drop them. */
  finish(result: { readonly id: string; readonly outcome: Outcome }): void {
    try {
      this.#flush(result.id, this.all || !PASSING.has(result.outcome));
    } catch {}
  }

  #flush(item: string | null, keep: boolean): void {
    const buffer = this.#open.get(item);
    if (!buffer) return;
    this.#open.delete(item);
    if (!keep) return;
    let omitted = buffer.omitted;
    for (const l of buffer.lines) {
      const text = JSON.stringify(l);
      if (this.#bytes + text.length + 1 > WIRE_LIMITS.totalBytes) {
        omitted++;
        continue;
      }
      this.#bytes += text.length + 1;
      this.#kept.push(text);
    }
    if (omitted)
      this.#kept.push(
        JSON.stringify({
          type: 'omitted',
          item,
          messages: omitted,
          why:
            omitted > buffer.omitted
              ? `the log reached ${WIRE_LIMITS.totalBytes} bytes`
              : `an item keeps at most ${WIRE_LIMITS.itemMessages} messages`,
        } satisfies WireOmittedLine),
      );
  }

  /** How many messages were kept. */
  get messages(): number {
    return this.#kept.length - 1;
  }

  /**
   * Write the log (JSONL) to `path`: to a temporary file beside it, then renamed, so that the
   * file is whole or absent. Messages of items still running (an interrupted run) are kept when
   * they are kept at all: an unfinished item did not pass.
   *
   * @throws the file system's error (the temporary file is removed).
   */
  write(path: string): void {
    for (const item of [...this.#open.keys()]) this.#flush(item, true);
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(tmp, `${this.#kept.join('\n')}\n`);
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }
}
