// A checker that swaps a tool span's times when its end comes first, so the trace reads as if
// the call had run forwards.
import { brokenChecker } from '../lib/otel-checker.mjs';

export const check = brokenChecker({
  spans: (spans) =>
    spans.map((s) =>
      s.startNs !== null && s.endNs !== null && s.endNs < s.startNs
        ? { ...s, startNs: s.endNs, endNs: s.startNs }
        : s,
    ),
});
