// @module-tag unit
// The implementation under test does not depend on the test kit: the reference implementation's
// runtime dependencies and sources name @agent-contracts/protocol, never @agent-contracts/harness
// (its tests may run it through the harness).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
  string,
  Record<string, string> | undefined
>;

/** Every module specifier a source file imports, re-exports or loads dynamically. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of text.matchAll(/\brequire\s*\(\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  return found;
}

/** The first import loop of a module graph (the modules in order, the first again at the end), or null. */
function importLoop(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const done = new Set<string>();
  const visit = (node: string, path: string[]): string[] | null => {
    const at = path.indexOf(node);
    if (at >= 0) return [...path.slice(at), node];
    if (done.has(node)) return null;
    for (const next of graph.get(node) ?? []) {
      const loop = visit(next, [...path, node]);
      if (loop) return loop;
    }
    done.add(node);
    return null;
  };
  for (const node of graph.keys()) {
    const loop = visit(node, []);
    if (loop) return loop;
  }
  return null;
}

describe('reference implementation', () => {
  it('has no runtime dependency on the harness, and one on the protocol', () => {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies'])
      expect(Object.keys(manifest[field] ?? {}), field).not.toContain('@agent-contracts/harness');
    expect(Object.keys(manifest.dependencies ?? {})).toContain('@agent-contracts/protocol');
  });

  it('imports nothing of the harness in any source file', () => {
    const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.[cm]?[jt]s$/.test(e.name))
      .map((e) => join(e.parentPath, e.name));
    expect(files.length).toBeGreaterThan(5);
    const all = files.flatMap((f) =>
      specifiers(readFileSync(f, 'utf8')).map((s) => [f.slice(root.length + 1), s]),
    );
    // The scan sees the sources' imports: the protocol package is among them.
    expect(all.some(([, s]) => s === '@agent-contracts/protocol')).toBe(true);
    expect(
      all.filter(([, s]) => s!.startsWith('@agent-contracts/harness') || s!.includes('packages/harness')),
    ).toEqual([]);
  });

  it('has no import loop among its own modules', () => {
    const dir = join(root, 'src');
    const graph = new Map(
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => [
          f,
          specifiers(readFileSync(join(dir, f), 'utf8'))
            .filter((s) => s.startsWith('./'))
            .map((s) => s.slice(2).replace(/\.js$/, '.ts')),
        ]),
    );
    expect(graph.size).toBeGreaterThan(5);
    expect(importLoop(graph)).toBeNull();
    expect(
      importLoop(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['a.ts']],
        ]),
      ),
    ).toEqual(['a.ts', 'b.ts', 'a.ts']);
  });

  it('the scan finds a harness import where there is one', () => {
    expect(
      specifiers(
        'import { x } from \'@agent-contracts/harness\';\nexport * from "@agent-contracts/harness/y";',
      ),
    ).toEqual(['@agent-contracts/harness', '@agent-contracts/harness/y']);
    expect(specifiers("const m = await import('@agent-contracts/harness');")).toEqual([
      '@agent-contracts/harness',
    ]);
  });
});
