// A checker that resolves differing copies of one span by keeping the last one read: the
// agent span delivered twice with two ends becomes one run with one terminal.
import { brokenChecker } from '../lib/otel-checker.mjs';

export const check = brokenChecker({
  spans: (spans) => {
    const last = new Map(spans.map((s) => [`${s.traceId}/${s.spanId}`, s]));
    return spans.filter((s) => last.get(`${s.traceId}/${s.spanId}`) === s);
  },
});
