// A broken OpenTelemetry checker (mutant.json `capability` `otel`, docs/conformance-quality.md#the-manifest):
// an ES module whose `check(requests, reference)` gives the verdict of a list of OTLP requests.
// It is judged on the golden cases of the mapping (conformance/otel) its manifest lists, as
// `otel check` is: a case passes when the verdict states exactly what the case states, fails when
// it states something else, and ends as error when the checker throws or returns no verdict. The
// module runs in this process and is handed the reference checker's parts (`reference`), so a
// broken checker can be the reference with one rule broken, written in plain JavaScript that an
// installed CLI imports without a TypeScript loader.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { globMatch, loadOtelCases, type OtelCase, printable, truncated } from '@agent-contracts/harness';
import { conformanceDirectory } from '@agent-contracts/kit';
import { observed } from '../../otel/cases.js';
import { parseOtlpText } from '../../otel/input.js';
import { checkRequests, judgeMapping, type OtelVerdict } from '../../otel/judge.js';
import { mapSpans } from '../../otel/map.js';
import { readSpans } from '../../otel/otlp.js';
import type { MutantManifest } from './manifest.js';
import type { MutantResult } from './run.js';

/** What a checker module is handed: the reference's reading, mapping and judging, and all three. */
export const OTEL_REFERENCE = Object.freeze({ readSpans, mapSpans, judgeMapping, checkRequests });

/** The checker a module exports. */
type CheckerModule = {
  check?: (requests: readonly unknown[], reference: typeof OTEL_REFERENCE) => OtelVerdict;
};

const LIMITS = { maxBytes: 16 * 1024 * 1024, maxDepth: 512 };

function requestsOf(c: OtelCase): unknown[] | null {
  if ('requests' in c.input) return c.input.requests;
  const parsed = parseOtlpText(Buffer.from(c.input.text, 'utf8'), LIMITS);
  return parsed.ok ? parsed.requests : null;
}

const why = (e: unknown) => printable(truncated(e instanceof Error ? e.message : String(e), 200));

/** Judge one broken checker on the otel cases its manifest lists. */
export async function runOtelMutant(mutant: MutantManifest): Promise<MutantResult> {
  const result = (status: MutantResult['status'], rest: Partial<MutantResult> = {}): MutantResult => ({
    mutant,
    status,
    caughtBy: [],
    passed: [],
    other: [],
    detail: null,
    ...rest,
  });
  let cases: OtelCase[];
  try {
    cases = loadOtelCases(conformanceDirectory);
  } catch (e) {
    return result('error', { detail: `the kit's otel cases cannot be read: ${why(e)}` });
  }
  const unmatched = mutant.cases.filter((g) => !cases.some((c) => globMatch(g, c.id)));
  if (unmatched.length)
    return result('error', {
      detail: `no case of conformance/otel matches ${unmatched.map((g) => JSON.stringify(printable(truncated(g, 80)))).join(', ')}`,
    });
  let module: CheckerModule;
  try {
    module = (await import(pathToFileURL(resolve(mutant.folder, mutant.impl)).href)) as CheckerModule;
  } catch (e) {
    return result('error', { detail: `${printable(mutant.impl)} cannot be imported: ${why(e)}` });
  }
  const check = module.check;
  if (typeof check !== 'function')
    return result('error', {
      detail: `${printable(mutant.impl)} exports no function check(requests, reference)`,
    });
  const caughtBy: string[] = [];
  const passed: string[] = [];
  const other: string[] = [];
  for (const c of cases.filter((x) => mutant.cases.some((g) => globMatch(g, x.id)))) {
    const requests = requestsOf(c);
    if (requests === null) {
      other.push(`${c.id} (error: the case's input is not OTLP JSON)`);
      continue;
    }
    try {
      const gave = observed(check(structuredClone(requests), OTEL_REFERENCE), c.expect);
      (isDeepStrictEqual(gave, c.expect) ? passed : caughtBy).push(c.id);
    } catch (e) {
      other.push(`${c.id} (error: ${why(e)})`);
    }
  }
  return result(caughtBy.length > 0 ? 'caught' : 'survived', { caughtBy, passed, other });
}
