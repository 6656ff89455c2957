// The frame of every broken OpenTelemetry checker: the reference's own reading, mapping and
// judging, which `agent-contracts mutants` hands each checker as `reference` (the parts of
// packages/cli/src/otel), with one hook that rewrites the spans or the mapping. Everything else
// is the reference's behaviour, so a broken checker breaks exactly the rule its hook touches; the
// golden cases of conformance/otel must catch it. Plain JavaScript, so the CLI imports it as it
// is installed, without a TypeScript loader.

/**
 * A checker with the reference's behaviour except where a hook rewrites it.
 * @param {{ spans?: (spans: any[]) => any[], mapping?: (mapping: any) => any }} hooks
 */
export function brokenChecker(hooks) {
  return (requests, reference) => {
    const { spans, problems } = reference.readSpans(requests);
    if (problems.length) return { input: problems, runs: [], schemaUrls: [], resource: {} };
    const read = hooks.spans ? hooks.spans(spans) : spans;
    const mapped = reference.mapSpans(read);
    return {
      input: [],
      runs: reference.judgeMapping(hooks.mapping ? hooks.mapping(mapped) : mapped),
      schemaUrls: [],
      resource: {},
    };
  };
}
