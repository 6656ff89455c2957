// `conform --isolate`: what the sandbox of the implementation shows and hides (transport/sandbox.ts
// of the harness), and the clear error where bubblewrap cannot run (ISOLATE_UNAVAILABLE).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { printable, sandboxCommand, sandboxProblem } from '@agent-contracts/harness';
import { conformanceDirectory } from '@agent-contracts/kit';
import { CliError } from '../../errors.js';

/** The `conformance/` directory of the installed @agent-contracts/kit package. */
function kitCopy(): string {
  try {
    return join(
      dirname(createRequire(import.meta.url).resolve('@agent-contracts/kit/package.json')),
      'conformance',
    );
  } catch {
    return conformanceDirectory;
  }
}

/** A sandbox for one run: the argument vector of every implementation process, and its cleanup. */
export interface Isolation {
  readonly sandbox: readonly string[];
  readonly cleanup: () => void;
}

/**
 * The sandbox of a run, or throws ISOLATE_UNAVAILABLE. `AGENT_CONTRACTS_BWRAP` names another
 * bwrap executable (for a bwrap outside PATH).
 */
export function isolation(o: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly here: string;
  readonly stateRoot: string;
  readonly conformanceDir: string;
  readonly reportPath?: string;
  readonly baselinePath?: string;
  /** `--otel`'s trace file: the run's results, written at the end, as the report is. */
  readonly otelPath?: string;
  /** `--wire`'s log: what crossed the pipes, written at the end, as the report is. */
  readonly wirePath?: string;
  readonly binds: readonly string[];
}): Isolation {
  const bwrap = o.env.AGENT_CONTRACTS_BWRAP || 'bwrap';
  const problem = sandboxProblem(bwrap);
  if (problem)
    throw new CliError(
      'ISOLATE_UNAVAILABLE',
      `--isolate runs the implementation under bubblewrap, which cannot run here: ${printable(problem)}. Install it (apt-get install bubblewrap), or run without --isolate (docs/cli.md#threat-model says what that leaves open).`,
    );
  for (const b of o.binds)
    if (!b.startsWith('/'))
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--bind ${printable(b)} must be an absolute path (with :rw to make it writable).`,
      );
  const tmp = mkdtempSync(join(tmpdir(), 'agent-contracts-sandbox-'));
  const sandbox = sandboxCommand({
    bwrap,
    ownDirectory: o.here,
    writable: [o.stateRoot],
    tmp,
    hidden: [
      o.conformanceDir,
      conformanceDirectory,
      // The kit package's own copy (built in a checkout, installed in a project).
      kitCopy(),
      ...(o.reportPath === undefined ? [] : [o.reportPath]),
      ...(o.baselinePath === undefined ? [] : [o.baselinePath]),
      ...(o.otelPath === undefined ? [] : [o.otelPath]),
      ...(o.wirePath === undefined ? [] : [o.wirePath]),
    ],
    binds: o.binds,
    path: (o.env.PATH ?? '').split(':').filter((p) => p.startsWith('/')),
    home: o.env.HOME || homedir(),
  });
  return { sandbox, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}
