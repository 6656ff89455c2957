// A verdict of `otel check` in the terms of a golden case of the mapping (conformance/otel, loaded
// by the harness's loadOtelCases): what a checker gave, compared member for member with what the
// case states.
import type { ExpectedRun, OtelCase } from '@agent-contracts/harness';
import type { OtelVerdict } from './judge.js';

/** A checker under test: the reference (judge.ts `checkRequests`) or a broken one. */
export type OtelChecker = (requests: readonly unknown[]) => OtelVerdict;

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
