// The PostgreSQL driver (`pg`), loaded on demand: an optional peer dependency of the harness and
// of the CLI, which only a run on a postgres:// state location needs (the fault scenario that
// drops the implementation's connections). The one module of the harness that loads it.

/** What the harness uses of `pg`: a client that connects, queries and ends. */
export interface PgModule {
  readonly Client: new (o: {
    connectionString: string;
  }) => {
    connect(): Promise<void>;
    query(q: string): Promise<{ rows: Array<Record<string, unknown>> }>;
    end(): Promise<void>;
  };
}

/** The command that installs the driver, as {@link PgNotInstalledError} names it. */
export const PG_INSTALL_COMMAND = 'npm install pg@8';

/**
 * `pg` is not installed where the harness (or the CLI) can load it. `code` is `PG_NOT_INSTALLED`;
 * the message names the package to add (docs/cli.md#error-codes).
 */
export class PgNotInstalledError extends Error {
  readonly code = 'PG_NOT_INSTALLED';

  constructor(what: string, options?: { cause?: unknown }) {
    super(
      `${what} needs the PostgreSQL driver pg, which is not installed: add it to the project (${PG_INSTALL_COMMAND}); it is an optional peer dependency, installed only by those who use PostgreSQL.`,
      options,
    );
    this.name = 'PgNotInstalledError';
  }
}

/** Whether `e` is Node's "cannot find package `pg`" (ESM or CommonJS), not an error inside pg. */
function isPgMissing(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    /['"]pg['"]/.test(String((e as Error).message))
  );
}

/**
 * Loads `pg`. `importer` is how (the literal `import('pg')`, which a bundle keeps as a runtime
 * import); tests give another.
 *
 * @throws {PgNotInstalledError} when pg is not installed; any other failure of loading it as is.
 * @example
 * const pg = await loadPg('a postgres:// state location');
 */
export async function loadPg(
  what: string,
  importer: () => Promise<unknown> = () => import('pg'),
): Promise<PgModule> {
  let mod: { default?: PgModule } & Partial<PgModule>;
  try {
    mod = (await importer()) as { default?: PgModule } & Partial<PgModule>;
  } catch (e) {
    if (isPgMissing(e)) throw new PgNotInstalledError(what, { cause: e });
    throw e;
  }
  return (mod.default ?? mod) as PgModule;
}
