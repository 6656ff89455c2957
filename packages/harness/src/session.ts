// What a whole run knows across its sessions: the `hello` every process must repeat, and the
// protocol violations no case can be charged with. One run, many processes (restarts, every
// `--jobs` worker, the fault matrix's probe, every process a scenario starts): all of them are
// one implementation, so all of them answer `hello` as the first did (docs/protocol.md#session,
// "one hello per run"), and a violation seen anywhere fails the run.
import { isDeepStrictEqual } from 'node:util';
import type { HelloResult } from '@agent-contracts/protocol';
import type { ProtocolViolation } from './transport/process.js';

/** Violations seen, and how many there were in all (only the first ones are kept with their text). */
export interface ViolationTally {
  readonly count: number;
  readonly first: readonly ProtocolViolation[];
}

/** How many run-level violations are kept with their text; later ones are only counted. */
const KEPT = 20;

/** What differs between two `hello` results, as a short list (`capabilities.store: true -> false`). */
export function helloDifferences(first: HelloResult, now: HelloResult): string[] {
  const out: string[] = [];
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  for (const k of ['name', 'version', 'language', 'protocolVersion'] as const)
    if (!isDeepStrictEqual(first[k], now[k])) out.push(`${k}: ${show(first[k])} -> ${show(now[k])}`);
  const a = (first.capabilities ?? {}) as unknown as Record<string, unknown>;
  const b = (now.capabilities ?? {}) as unknown as Record<string, unknown>;
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
    if (!isDeepStrictEqual(a[k], b[k])) out.push(`capabilities.${k}: ${show(a[k])} -> ${show(b[k])}`);
  const extra = Object.keys(now).filter(
    (k) => !['name', 'version', 'language', 'protocolVersion', 'capabilities'].includes(k),
  );
  for (const k of extra)
    if (
      !isDeepStrictEqual(
        (first as unknown as Record<string, unknown>)[k],
        (now as unknown as Record<string, unknown>)[k],
      )
    )
      out.push(`${k} differs`);
  if (!out.length && !isDeepStrictEqual(first, now)) out.push('the result differs');
  return out;
}

/**
 * The run-wide ledger: pins the first `hello` any process of the run answered, and keeps the
 * protocol violations that no case or scenario can be charged with (before the first case of a
 * session, in a session where no case applied, in the fault matrix's probe). A run whose ledger
 * holds a violation does not conform.
 */
export class RunLedger {
  #hello: HelloResult | null = null;
  #violations: ProtocolViolation[] = [];
  #count = 0;

  /** The first `hello` of the run, or null before any process answered. */
  get hello(): HelloResult | null {
    return this.#hello;
  }

  /**
   * Check one process's `hello` against the run's first: the first one pins it. Returns the
   * `hello` the run goes by (always the first) and, when this one differs, the violation.
   */
  pin(hello: HelloResult): { hello: HelloResult; violation: ProtocolViolation | null } {
    if (this.#hello === null) {
      this.#hello = hello;
      return { hello, violation: null };
    }
    if (isDeepStrictEqual(this.#hello, hello)) return { hello: this.#hello, violation: null };
    const d = helloDifferences(this.#hello, hello);
    return {
      hello: this.#hello,
      violation: {
        code: 'IMPL_HELLO_CHANGED',
        message: `a process answered hello differently from the run's first process (${d.slice(0, 4).join('; ')}${d.length > 4 ? `; and ${d.length - 4} more` : ''}); every process of a run must answer hello exactly as the first did, and the run goes by the first`,
      },
    };
  }

  /** Charge violations to the run (`where`: the session they were seen in). */
  charge(seen: ViolationTally, where: string): void {
    if (seen.count === 0) return;
    this.#count += seen.count;
    for (const v of seen.first)
      if (this.#violations.length < KEPT) this.#violations.push({ ...v, message: `${where}: ${v.message}` });
  }

  /** The violations charged to the run. */
  get violations(): ViolationTally {
    return { count: this.#count, first: [...this.#violations] };
  }
}
