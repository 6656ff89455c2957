// The trace recorder's cases (`traceCase`) and the opened trace most of them start from.
import type { TraceAppendInput } from '@agent-contracts/engines';
import { add } from './defs.ts';
import { spec, TRACE, TRACE_PAGE } from './names.ts';
import type { Session } from './session.ts';

export const TRACE_T0 = Date.parse('2026-11-30T05:53:08.114Z');
export const traceCase = (
  id: string,
  title: string,
  anchor: string,
  build: (s: Session) => void,
  subject = 'LocalTaskTraceV1',
) =>
  add(
    {
      id: `trace/${subject}/${id}`,
      title,
      gate: 'LocalTaskTraceGate',
      subject,
      spec: spec(TRACE_PAGE, anchor),
      requires: TRACE,
    },
    build,
  );
/** No trace, clock at TRACE_T0, then the trace of `turnKey` opened. */
export const opened = (s: Session, turnKey = 'turn-01') => {
  s.set(TRACE_T0).traceLoad(null);
  s.traceOpen({ turnKey });
};
export const hostAppend = (
  type: string,
  key: string,
  payload: Record<string, unknown> = {},
): TraceAppendInput => ({
  type,
  result: 'observed',
  occurrenceKey: key,
  payload,
});
