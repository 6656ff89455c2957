/**
 * Stable codes of `agent-contracts` (documented in docs/cli.md). Input codes describe one file and
 * appear as issues in its result; usage codes stop the command before it reads anything.
 */
export const CLI_CODES = {
  USAGE_UNKNOWN_COMMAND: 'The first argument is not a command. Exit 2.',
  USAGE_UNKNOWN_OPTION: 'An option the command does not define. Exit 2.',
  USAGE_BAD_VALUE: 'An option value is malformed (e.g. `--max-bytes ten`). Exit 2.',
  USAGE_MISSING_ARGUMENT: 'The command needs at least one file, directory or `-`. Exit 2.',
  USAGE_STDIN_TWICE: '`-` (standard input) is given more than once. Exit 2.',
  INPUT_NOT_FOUND: 'A file or directory argument does not exist. Exit 2.',
  INPUT_READ_FAILED: 'A file or directory could not be read (permissions, I/O error). Exit 2.',
  INPUT_NO_FILES: 'The arguments named no file to validate (e.g. a directory without *.json files). Exit 2.',
  INPUT_EMPTY: 'The file is empty or only whitespace. Exit 1.',
  INPUT_TOO_LARGE: 'The file is larger than `--max-bytes` (default 16 MiB); it is not read. Exit 1.',
  INPUT_INVALID_UTF8: 'The bytes are not valid UTF-8 (UTF-16 is refused too). Exit 1.',
  INPUT_BOM:
    'Warning: the file starts with a UTF-8 byte order mark; it is ignored (RFC 8259 section 8.1). Exit 0.',
  INPUT_TOO_DEEP:
    'Arrays and objects are nested deeper than `--max-depth` (default 512); it is not parsed. Exit 1.',
  INPUT_DUPLICATE_MEMBER:
    'An object repeats a member name (`{"a":1,"a":2}`): not I-JSON (RFC 7493), so readers disagree on its value; it is not validated. Exit 1.',
  INPUT_NOT_JSON: 'The text is not JSON; the message gives the parser position. Exit 1.',
  CASES_INVALID:
    'The conformance cases (conformance/cases) are malformed: a kit bug or a bad `--conformance` directory. Exit 2.',
  BASELINE_INVALID:
    'The `--baseline` file is missing, not JSON, or not `{ "expectedFailures": [{ "id", "reason" }] }`. Exit 2.',
  MUTANTS_INVALID:
    'A `mutants` directory holds no folder with a mutant.json, or a mutant.json is malformed (the message names the field). Exit 2.',
  REPORT_INVALID:
    'A report file cannot be read, is too large, is not UTF-8, or has a line that is not JSON, breaks schemas/harness/ReportLine.schema.json or is out of order (the message names the line and JSON Pointer). Exit 2.',
  REPORT_INCOMPLETE:
    'A report has no summary line (the run was interrupted or did not finish), or fewer case lines than its summary counts (the file was cut short): `diff` refuses it, `report` renders it only with `--allow-incomplete`. Exit 2.',
  REPORT_INTERRUPTED:
    'A report ends with the `interrupted` line that `conform` writes when SIGINT or SIGTERM stops it: it holds what finished and no verdict, so `diff` refuses it and `report` renders it only with `--allow-incomplete`, labelled interrupted. Exit 2.',
  SCHEMA_INPUT_INVALID:
    'A schema-diff input cannot be read as JSON (the limits of validate), is not a JSON Schema object with an `$id`, shares its `$id`, or a directory holds too many. Exit 2.',
  STATE_NOT_EMPTY:
    "The `conform --state` directory already holds files (state of an earlier run would be read back as this one's): give an empty or new directory, or add `--clean-state` to empty it first. Exit 2.",
  ISOLATE_UNAVAILABLE:
    '`conform --isolate` needs bubblewrap (`bwrap`), which is not installed or cannot create its namespaces here; the message says which. Exit 2.',
  PG_NOT_INSTALLED:
    '`conform --state-url` selects a fault scenario that loads the PostgreSQL driver `pg`, which is not installed: `npm install pg@8` (an optional peer dependency). Exit 2.',
  OTEL_NO_AGENT_RUN:
    '`otel check`: no span of the input has `gen_ai.operation.name` `invoke_agent`, so there is no agent run to judge. Exit 1.',
  OTEL_EXPORT_INVALID:
    '`otel export`: an input is not a valid LocalTaskTraceV1 (another contract, or a document the reference validators refuse); nothing is written. Exit 1.',
  DOCS_UNKNOWN_TOPIC:
    '`docs <topic>` names no page of the installed docs; the message lists the closest topics. Exit 2.',
  CASE_UNKNOWN:
    '`explain <id>` names no golden case or fault scenario of the kit; the message lists the closest ids. Exit 2.',
  CLI_INTERNAL_ERROR: 'The CLI failed unexpectedly (a bug; report it). Exit 2.',
} as const;

/** A code of {@link CLI_CODES}. */
export type CliCode = keyof typeof CLI_CODES;

/** A usage error: reported on stderr as `agent-contracts: <code>: <message>`, exit 2. */
export class CliError extends Error {
  /** Stable code from {@link CLI_CODES}. */
  readonly code: CliCode;

  constructor(code: CliCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.code = code;
  }
}
