// The two forms of OTLP JSON input (docs/spec/opentelemetry-mapping.md#input): a text that parses
// as one JSON value is one request (the OTLP/HTTP JSON body); otherwise every non-blank line is
// one request (the Collector file exporter). Each value is read with the bounds of `validate`:
// strict UTF-8, a nesting-depth pre-scan, and refusal of a repeated member name.
import type { Issue } from '@agent-contracts/validators';
import { type InputLimits, parseInput } from '../commands/validate/input.js';

/** The requests of an input, or the issue (with the line, for a file-exporter file) that stops it. */
export type OtlpText =
  | {
      readonly ok: true;
      readonly requests: unknown[];
      readonly form: 'body' | 'lines';
      readonly warnings: Issue[];
    }
  | { readonly ok: false; readonly issue: Issue; readonly line: number | null };

export function parseOtlpText(bytes: Uint8Array, limits: InputLimits): OtlpText {
  const whole = parseInput(bytes, limits);
  if (whole.ok) return { ok: true, requests: [whole.value], form: 'body', warnings: whole.warnings };
  if (whole.issue.code !== 'INPUT_NOT_JSON') return { ok: false, issue: whole.issue, line: null };
  const text = Buffer.from(bytes).toString('utf8');
  const lines = text.split('\n');
  if (lines.filter((l) => l.trim() !== '').length < 2) return { ok: false, issue: whole.issue, line: null };
  const requests: unknown[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const one = parseInput(Buffer.from(line, 'utf8'), limits);
    if (!one.ok) return { ok: false, issue: one.issue, line: i + 1 };
    requests.push(one.value);
  }
  return { ok: true, requests, form: 'lines', warnings: [] };
}
