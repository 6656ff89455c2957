// The golden cases of the mapping (conformance/otel): spans in, verdict out. A case holds the
// input (requests, or the text of a file) and the verdict every checker must give: the input
// problems, or for each run its id, whether it passes and its issues by code and location.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { OtelVerdict } from './judge.js';

export interface OtelCase {
  readonly id: string;
  readonly title: string;
  readonly gate: string;
  readonly level: string;
  readonly requirements: readonly string[];
  readonly spec: string;
  readonly input: { readonly requests: unknown[] } | { readonly text: string };
  readonly expect: {
    readonly input?: readonly { code: string; pointer: string }[];
    readonly runs: readonly ExpectedRun[];
  };
}

export interface ExpectedRun {
  readonly id: string;
  readonly ok: boolean;
  readonly issues: readonly { code: string; pointer: string }[];
  readonly status?: string;
  readonly toolSpans?: number;
  readonly chatSpans?: number;
  readonly dropped?: number;
}

/** A checker under test: the reference (judge.ts `checkRequests`) or a broken one. */
export type OtelChecker = (requests: readonly unknown[]) => OtelVerdict;

/** Every case below `dir`, sorted by id. */
export function loadOtelCases(dir: string): OtelCase[] {
  const out: OtelCase[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) {
        const c = JSON.parse(readFileSync(p, 'utf8')) as OtelCase;
        if (c.id !== `otel/${relative(dir, p).replace(/\.json$/, '')}`)
          throw new Error(`${p}: id ${c.id} does not match the file's path`);
        out.push(c);
      }
    }
  };
  walk(dir);
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** What the verdict says, in the terms a case states (only the members the case names). */
export function observed(verdict: OtelVerdict, expect: OtelCase['expect']): OtelCase['expect'] {
  const runs = verdict.runs.map((r, i) => {
    const want = expect.runs[i];
    const trace = r.trace as { status?: string } | null;
    return {
      id: r.id,
      ok: r.ok,
      issues: r.issues.map((x) => ({ code: x.code, pointer: x.pointer })),
      ...(want?.status === undefined ? {} : { status: trace?.status ?? null }),
      ...(want?.toolSpans === undefined ? {} : { toolSpans: r.toolSpans }),
      ...(want?.chatSpans === undefined ? {} : { chatSpans: r.chatSpans }),
      ...(want?.dropped === undefined ? {} : { dropped: r.dropped }),
    } as ExpectedRun;
  });
  return {
    ...(expect.input === undefined && verdict.input.length === 0
      ? {}
      : { input: verdict.input.map((p) => ({ code: p.code, pointer: p.pointer })) }),
    runs,
  };
}
