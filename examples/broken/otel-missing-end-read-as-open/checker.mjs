// A checker that reads every span without an end as open, as if each carried
// agent_contracts.span.open true: a run whose end was lost passes as an open turn, and a tool
// call that never returned as an open lease.
import { brokenChecker } from '../lib/otel-checker.mjs';

const OPEN = 'agent_contracts.span.open';

export const check = brokenChecker({
  spans: (spans) =>
    spans.map((s) =>
      s.endNs === null && !s.attributes.has(OPEN)
        ? {
            ...s,
            attributes: new Map([
              ...s.attributes,
              [OPEN, { kind: 'boolValue', text: null, bool: true, pointer: `${s.pointer}/attributes/-` }],
            ]),
          }
        : s,
    ),
});
