// The frame of every broken OpenTelemetry checker: the reference's own reading, mapping and
// judging (packages/cli/src/otel), with one hook that rewrites the spans, the mapping or the
// verdicts. Everything else is the reference's behaviour, so a broken checker breaks exactly the
// rule its hook touches; the golden cases of conformance/otel must catch it.
import { judgeMapping, type OtelVerdict } from '../../../packages/cli/src/otel/judge.ts';
import { type Mapping, mapSpans } from '../../../packages/cli/src/otel/map.ts';
import { readSpans, type Span } from '../../../packages/cli/src/otel/otlp.ts';

export interface CheckerHooks {
  spans?(spans: Span[]): Span[];
  mapping?(mapping: Mapping): Mapping;
}

/** A checker with the reference's behaviour except where a hook rewrites it. */
export function brokenChecker(hooks: CheckerHooks): (requests: readonly unknown[]) => OtelVerdict {
  return (requests) => {
    const { spans, problems } = readSpans(requests);
    if (problems.length) return { input: problems, runs: [], schemaUrls: [], resource: {} };
    const read = hooks.spans ? hooks.spans(spans) : spans;
    const mapped = mapSpans(read);
    return {
      input: [],
      runs: judgeMapping(hooks.mapping ? hooks.mapping(mapped) : mapped),
      schemaUrls: [],
      resource: {},
    };
  };
}
