// What `conform` says about the run as a whole, beyond its cases: the protocol violations that no
// case could be charged with (docs/protocol.md#framing-and-errors).
import { sha256Hex } from '@agent-contracts/digest';
import { type HelloResult, missingCapabilities, printable, type SummaryLine } from '@agent-contracts/harness';
import type { painter } from '../../color.js';

/**
 * Whether anything the run selects, over all its shards, applies to the implementation: when
 * nothing does, no shard may give NO VERDICT (exit 0), or a shard matrix would go green having
 * checked nothing (issue 20, finding 10).
 */
export function appliesAnywhere(requires: readonly (readonly string[])[], hello: HelloResult): boolean {
  return requires.some((r) => missingCapabilities(r, hello.capabilities).length === 0);
}

/** The block naming the run's own protocol violations (empty when there were none). */
export function runViolationsText(summary: SummaryLine, paint: ReturnType<typeof painter>): string {
  const v = summary.runViolations;
  if (!v) return '';
  const lines = v.first.map(
    (x) =>
      `  ${printable(x.code)}: ${printable(x.message)}${x.excerpt === undefined ? '' : ` (line: ${printable(x.excerpt)})`}`,
  );
  const more = v.count - v.first.length;
  return `\n${paint.red(`${v.count} protocol violation${v.count === 1 ? '' : 's'} charged to the run (seen where no case could be charged with ${v.count === 1 ? 'it' : 'them'}); the run does not conform:`)}\n${lines.join('\n')}${more > 0 ? `\n  ... and ${more} more` : ''}\n`;
}

/**
 * The last line of the output when a report was written: its path and the SHA-256 of its bytes,
 * so that a CI log proves which report the run wrote (a report edited afterwards has another).
 */
export function reportDigestLine(path: string, text: string): string {
  return `Report: ${printable(path)} (sha256 ${sha256Hex(text)})\n`;
}
