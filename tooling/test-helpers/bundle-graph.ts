// What a command of a bundle loads before it runs: the source files of the output chunks its own
// chunk imports statically, transitively (an esbuild metafile, scripts/bundle-reference.mjs's
// `bundleMetafile`). Dynamic imports are where lazily loaded code starts, so they are not followed.

/** The part of an esbuild metafile this reads. */
export interface Metafile {
  readonly outputs: Readonly<
    Record<
      string,
      {
        readonly entryPoint?: string;
        readonly inputs: Readonly<Record<string, unknown>>;
        readonly imports: ReadonlyArray<{
          readonly path: string;
          readonly kind: string;
          readonly external?: boolean;
        }>;
      }
    >
  >;
}

/**
 * The source files (repository-relative, as esbuild names them) in the output of `entry` and in
 * every output it imports statically, transitively. Throws when no output has `entry` as its
 * entry point (a module loaded with `import()` is one).
 */
export function staticInputs(metafile: Metafile, entry: string): Set<string> {
  const start = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === entry)?.[0];
  if (start === undefined) throw new Error(`no output of the bundle has the entry point ${entry}`);
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of metafile.outputs[file]!.imports)
      if (i.kind === 'import-statement' && !i.external) todo.push(i.path);
  }
  const inputs = new Set<string>();
  for (const file of seen) for (const input of Object.keys(metafile.outputs[file]!.inputs)) inputs.add(input);
  return inputs;
}

/**
 * The metafile of a target of scripts/bundle-reference.mjs (`cli-published`, ...), built in
 * memory with the options the real bundle is built with.
 */
export async function bundleMetafile(target: string): Promise<Metafile> {
  const script = new URL('../../scripts/bundle-reference.mjs', import.meta.url).href;
  const { bundleMetafile: build } = (await import(script)) as {
    bundleMetafile(name: string): Promise<Metafile>;
  };
  return build(target);
}
