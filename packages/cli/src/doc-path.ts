// Where a page the CLI cites is on this machine. The kit (@agent-contracts/kit) ships the
// repository's docs/; a message names a page as `docs/<page>.md#<anchor>`, which exists only in
// this repository, so what is printed is the installed page: relative to the working directory
// when it lies inside it (`docs/protocol.md` in the repository,
// `node_modules/@agent-contracts/kit/docs/protocol.md` in a project that installed the kit),
// absolute otherwise.
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { docsDirectory } from '@agent-contracts/kit';

/** A page reference as the kit's messages and case files write it. */
const DOC_REF = /\bdocs\/((?:[a-z0-9_-]+\/)*[a-z0-9_.-]+\.md)(#[a-z0-9_-]+)?/gi;

/** The file of `page` (`protocol.md`, `spec/index.md`) in the installed docs. */
export function docFile(page: string): string {
  return join(docsDirectory, page);
}

/** How to print the path of `file`: relative to `cwd` when inside it, else absolute. */
function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/**
 * `docs/<page>.md[#anchor]` as a path that resolves here, the anchor kept; a reference to a page
 * the kit does not ship is returned unchanged.
 *
 * @example
 * docPath('docs/protocol.md#hello'); // 'node_modules/@agent-contracts/kit/docs/protocol.md#hello' in a project
 */
export function docPath(ref: string, cwd: string = process.cwd()): string {
  return docRefs(ref, cwd);
}

/** `text` with every `docs/<page>.md[#anchor]` of a page the kit ships replaced by {@link docPath}'s path. */
export function docRefs(text: string, cwd: string = process.cwd()): string {
  return text.replace(DOC_REF, (whole: string, page: string, anchor: string | undefined) => {
    const file = docFile(page);
    return existsSync(file) ? `${shown(file, cwd)}${anchor ?? ''}` : whole;
  });
}

/** The installed docs/ folder, printed as {@link docPath} prints its pages. */
export function docsRoot(cwd: string = process.cwd()): string {
  return `${shown(docsDirectory, cwd).replace(/[\\/]$/, '')}/`;
}
