// Result reporters. Both stream: one result is written (with backpressure) as soon as it is known
// and only counters are kept, so memory does not grow with the number of files.
import { printable } from '@agent-contracts/harness/text';
import type { Issue } from '@agent-contracts/validators';
import type { Paint } from '../../color.js';
import type { Io } from '../../io.js';

/** The verdict on one input. */
export interface FileResult {
  /** The path as given or found (`-` for standard input). */
  readonly file: string;
  /** `valid`; `invalid` (the content breaks a rule); `error` (it could not be read). */
  readonly status: 'valid' | 'invalid' | 'error';
  /** The contract the document was judged as, or `null`. */
  readonly contract: string | null;
  /** Every issue, errors and warnings. */
  readonly issues: readonly Issue[];
}

/** Counts of a run. */
export interface Summary {
  files: number;
  valid: number;
  invalid: number;
  errors: number;
}

/** Receives results one at a time. */
export interface Reporter {
  start(): Promise<void>;
  result(r: FileResult): Promise<void>;
  end(summary: Summary, exitCode: number): Promise<void>;
}

/** Version of the `--json` output format (schemas/cli/validate-output.schema.json). */
export const OUTPUT_FORMAT_VERSION = 1;

/** `--json`: one JSON document, written incrementally. */
export function jsonReporter(io: Io): Reporter {
  let first = true;
  return {
    start: () =>
      io.out(
        `{"tool":"agent-contracts","command":"validate","formatVersion":${OUTPUT_FORMAT_VERSION},"results":[`,
      ),
    async result(r) {
      await io.out(`${first ? '\n' : ',\n'}${JSON.stringify(r)}`);
      first = false;
    },
    end: (summary, exitCode) =>
      io.out(`${first ? '' : '\n'}],"summary":${JSON.stringify({ ...summary, exitCode })}}\n`),
  };
}

function issueLine(i: Issue, paint: Paint): string {
  const sev = i.severity === 'error' ? paint.red('error') : paint.yellow('warning');
  const at = i.path === '' ? '' : ` at ${printable(i.path)}`;
  return `    ${sev} ${paint.bold(printable(i.code))}${at}: ${printable(i.message)}\n`;
}

/** Human output: one line per file, indented issues below, a summary line. */
export function humanReporter(io: Io, paint: Paint, quiet: boolean): Reporter {
  return {
    start: async () => {},
    async result(r) {
      if (quiet && r.status === 'valid' && r.issues.length === 0) return;
      const word =
        r.status === 'valid'
          ? paint.green('ok     ')
          : r.status === 'invalid'
            ? paint.red('invalid')
            : paint.red('error  ');
      const contract = r.contract === null ? '' : `  ${paint.dim(printable(r.contract))}`;
      let text = `${word} ${printable(r.file)}${contract}\n`;
      for (const issue of r.issues) text += issueLine(issue, paint);
      await io.out(text);
    },
    end: (s) => {
      const parts = [`${s.valid} valid`, `${s.invalid} invalid`, `${s.errors} unreadable`];
      return io.out(`${s.files} file${s.files === 1 ? '' : 's'}: ${parts.join(', ')}\n`);
    },
  };
}
