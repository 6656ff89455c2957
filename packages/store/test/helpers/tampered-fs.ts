// A file system that changes under the code being tested at one exact step: `withTamperedFs`
// replaces some `node:fs` calls for the length of a synchronous body, through the module's
// CommonJS exports and `syncBuiltinESMExports` (so that `import { readSync } from 'node:fs'` in
// the code under test sees the replacement too), counts every call of the calls it knows, and
// puts the originals back whatever the body does.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const TRACKED = ['lstatSync', 'openSync', 'fstatSync', 'readSync', 'statSync', 'closeSync'] as const;
type Tracked = (typeof TRACKED)[number];

/** For each call to replace, a function of the original that returns the replacement. */
export type FsHooks = { readonly [K in Tracked]?: (original: (typeof fs)[K]) => (typeof fs)[K] };

/** Run `body` with `hooks` in place; the number of calls of each tracked function. */
export function withTamperedFs(hooks: FsHooks, body: () => void): { calls: Record<Tracked, number> } {
  const calls = Object.fromEntries(TRACKED.map((k) => [k, 0])) as Record<Tracked, number>;
  const originals = Object.fromEntries(TRACKED.map((k) => [k, fs[k]])) as { [K in Tracked]: (typeof fs)[K] };
  const target = fs as unknown as Record<Tracked, (...args: unknown[]) => unknown>;
  for (const k of TRACKED) {
    const original = originals[k];
    const hook = hooks[k] as ((o: typeof original) => typeof original) | undefined;
    const replaced = (hook ? hook(original) : original) as (...args: unknown[]) => unknown;
    target[k] = (...args: unknown[]) => {
      calls[k]++;
      return replaced(...args);
    };
  }
  syncBuiltinESMExports();
  try {
    body();
  } finally {
    Object.assign(fs, originals);
    syncBuiltinESMExports();
  }
  return { calls };
}
