// @module-tag unit
// The golden cases of the OpenTelemetry mapping (conformance/otel) against the reference checker:
// each input gives exactly the verdict its case states, with the environment variable of the
// conventions' opt-in unset and set (OTL-004: the checker's environment changes nothing).
import { fileURLToPath } from 'node:url';
import { loadOtelCases, type OtelCase } from '@agent-contracts/harness';
import { afterEach, describe, expect, it } from 'vitest';
import { observed } from '../src/otel/cases.ts';
import { parseOtlpText } from '../src/otel/input.ts';
import { checkRequests } from '../src/otel/judge.ts';

const DIR = fileURLToPath(new URL('../../../conformance/', import.meta.url));
const cases = loadOtelCases(DIR);
const LIMITS = { maxBytes: 16 * 1024 * 1024, maxDepth: 512 };

function requestsOf(c: OtelCase): unknown[] {
  if ('requests' in c.input) return c.input.requests;
  const parsed = parseOtlpText(Buffer.from(c.input.text, 'utf8'), LIMITS);
  if (!parsed.ok) throw new Error(`${c.id}: ${parsed.issue.message}`);
  return parsed.requests;
}

const saved = process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
afterEach(() => {
  if (saved === undefined) delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
  else process.env.OTEL_SEMCONV_STABILITY_OPT_IN = saved;
});

describe('golden OpenTelemetry cases', () => {
  it('exist for clean runs, broken traces and refused inputs', () => {
    for (const group of ['otel/clean/', 'otel/broken/', 'otel/input/'])
      expect(cases.filter((c) => c.id.startsWith(group)).length, group).toBeGreaterThanOrEqual(3);
  });

  for (const c of cases)
    for (const optIn of [undefined, 'gen_ai_latest_experimental'])
      it(`${c.id} (OTEL_SEMCONV_STABILITY_OPT_IN ${optIn ?? 'unset'})`, () => {
        if (optIn === undefined) delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
        else process.env.OTEL_SEMCONV_STABILITY_OPT_IN = optIn;
        const verdict = checkRequests(requestsOf(c));
        expect(observed(verdict, c.expect)).toEqual(c.expect);
      });
});
