// What a package's test reaches (tooling/vitest/suites.ts: packages/<p>/test covers that package
// with the packages it depends on; what runs several packages together is test/integration): the
// workspace packages whose code a test file imports or names to start, read from its source and
// from the helpers it imports, so that a test of one package that runs another one's code (the
// reference implementation behind `conform --impl`, say) is found wherever it names it.
//
// A file reaches a workspace package when it imports it by name (`@agent-contracts/<name>`) or
// names a file in its directory, by a relative specifier or URL (`new URL('../x', import.meta.url)`)
// or by a path from the repository root (`join(repoRoot, 'examples/reference-node/...')`). The
// files it names that belong to no workspace package (its own package's test helpers,
// tooling/test-helpers, the programs of examples/broken and examples/legacy-shaped) are read the
// same way, so a helper that starts the reference counts for every test that uses it; a helper's
// re-export counts only where its name is imported. A package's own sources are not read: what
// they import their package.json declares. The directories of examples/ without a package.json
// (python-reference, python-digest) are no workspace package: their tests are not held to this.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A workspace package: its directory (relative to the root), its name and what it declares. */
export interface WorkspacePackage {
  dir: string;
  name: string;
  declared: ReadonlySet<string>;
}

/** The workspace packages: every packages/* and examples/* directory with a package.json. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const out: WorkspacePackage[] = [];
  for (const group of ['packages', 'examples'])
    for (const name of readdirSync(join(root, group)).sort()) {
      const manifest = join(root, group, name, 'package.json');
      if (!existsSync(manifest)) continue;
      const json = JSON.parse(readFileSync(manifest, 'utf8'));
      const declared = new Set<string>();
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'])
        for (const dep of Object.keys(json[field] ?? {})) declared.add(dep);
      out.push({ dir: `${group}/${name}`, name: json.name, declared });
    }
  return out;
}

const SCOPE = '@agent-contracts/';
/** A path from the repository root into packages/ or examples/, inside a longer string. */
const ROOT_PATH = /(?:^|[\s'"`=/])((?:packages|examples)\/[\w.@-]+(?:\/[\w.@-]+)*)/g;
const READ = /\.(ts|mts|js|mjs)$/;

/** Every name: a test file itself, a file named by a path, `import *` or `export *`. */
const ALL = '*';

/** What a source file names: its imports with the names they take, its re-exports, its strings. */
interface Source {
  imports: Array<{ specifier: string; names: string[] }>;
  reexports: Array<{ specifier: string; names: Map<string, string> | typeof ALL }>;
  strings: string[];
}

/** The imports, re-exports and string pieces of a source file (comments are not read). */
function read(file: string): Source {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const out: Source = { imports: [], reexports: [], strings: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const names: string[] = [];
      if (!clause || clause.name) names.push(clause ? 'default' : ALL);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.push(ALL);
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) names.push((e.propertyName ?? e.name).text);
      out.imports.push({ specifier: node.moduleSpecifier.text, names });
      return;
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const names =
        clause && ts.isNamedExports(clause)
          ? new Map(clause.elements.map((e) => [e.name.text, (e.propertyName ?? e.name).text] as const))
          : ALL;
      out.reexports.push({ specifier: node.moduleSpecifier.text, names });
      return;
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      out.strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The file a specifier names: as written, or its `.ts` source for a `.js` one. */
function existingFile(path: string): string | null {
  const candidates = [path, path.replace(/\.js$/, '.ts'), `${path}.ts`];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/**
 * The names of the workspace packages that `file` (relative to `root`) reaches, its own package
 * left out. A helper's re-export (`export { REFERENCE } from ...`) counts only for a file that
 * imports that name from it; everything else a file it reads names counts for it.
 */
export function reachOf(root: string, file: string, packages: readonly WorkspacePackage[]): Set<string> {
  const owner = (rel: string) => packages.find((p) => rel === p.dir || rel.startsWith(`${p.dir}/`));
  const own = owner(file);
  const reached = new Set<string>();
  const sources = new Map<string, Source>();
  /** Per file read, the names already followed through its re-exports. */
  const followed = new Map<string, Set<string>>();
  const pending: Array<{ rel: string; names: readonly string[] }> = [{ rel: file, names: [ALL] }];
  /** A path named by a file: a package it reaches, or a file to read for `names`. */
  const named = (abs: string, names: readonly string[]) => {
    const rel = relative(root, abs).split(sep).join('/');
    if (rel.startsWith('..') || rel.split('/').includes('node_modules')) return;
    const pkg = owner(rel);
    if (pkg && pkg !== own) {
      reached.add(pkg.name);
      return;
    }
    // Its own package: its test helpers only. Elsewhere: helpers and example programs.
    if (pkg ? !rel.startsWith(`${pkg.dir}/test/`) : !/^(test|tooling\/test-helpers|examples)\//.test(rel))
      return;
    const target = existingFile(abs);
    if (target && READ.test(target))
      pending.push({ rel: relative(root, target).split(sep).join('/'), names });
  };
  const specified = (from: string, specifier: string, names: readonly string[]) => {
    if (specifier.startsWith(SCOPE)) {
      const name = specifier.split('/').slice(0, 2).join('/');
      if (packages.some((p) => p.name === name) && name !== own?.name) reached.add(name);
    } else if (specifier.startsWith('./') || specifier.startsWith('../'))
      named(resolve(dirname(from), specifier), names);
  };
  while (pending.length > 0) {
    const { rel, names } = pending.pop()!;
    const abs = join(root, rel);
    let source = sources.get(rel);
    if (!source) {
      source = read(abs);
      sources.set(rel, source);
      followed.set(rel, new Set());
      for (const i of source.imports) specified(abs, i.specifier, i.names);
      for (const s of source.strings) {
        if (s.startsWith(SCOPE) || s.startsWith('./') || s.startsWith('../')) specified(abs, s, [ALL]);
        for (const m of s.matchAll(ROOT_PATH)) named(join(root, m[1]!), [ALL]);
      }
    }
    const done = followed.get(rel)!;
    const fresh = names.filter((n) => !done.has(n) && !done.has(ALL));
    if (fresh.length === 0) continue;
    for (const n of fresh) done.add(n);
    for (const r of source.reexports) {
      const take =
        r.names === ALL
          ? fresh
          : [...r.names]
              .filter(([exported]) => fresh.includes(ALL) || fresh.includes(exported))
              .map(([, local]) => local);
      if (take.length > 0) specified(abs, r.specifier, take);
    }
  }
  return reached;
}

/** The test files of workspace packages that reach a workspace package their package.json does not declare. */
export function undeclaredReaches(
  root: string,
  files: readonly string[],
): Array<{ file: string; undeclared: string[] }> {
  const packages = workspacePackages(root);
  const out: Array<{ file: string; undeclared: string[] }> = [];
  for (const file of files) {
    const own = packages.find((p) => file.startsWith(`${p.dir}/test/`));
    if (!own) continue;
    const undeclared = [...reachOf(root, file, packages)].filter((n) => !own.declared.has(n)).sort();
    if (undeclared.length > 0) out.push({ file, undeclared });
  }
  return out;
}
