import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkFiles, walkProblemLines } from '@agent-contracts/harness/walk';
import { docsDirectory } from '@agent-contracts/kit';
import { closest, distance } from 'fastest-levenshtein';
import { commandArgs } from '../../args.js';
import type { Command } from '../../command.js';
import { docPath, docsRoot } from '../../doc-path.js';
import { CliError } from '../../errors.js';

const HELP = `Usage: agent-contracts docs [topic] [--print]

The kit's documentation is installed with it (@agent-contracts/kit ships docs/): the protocol, the
command line, every spec page, the requirement coverage. Every docs/ path the CLI prints is a path
of these installed pages.

Without a topic, lists every page: its topic, title and where it is. With a topic, prints where
that page is. A topic is a page's name without .md (protocol, cli, coverage, spec/index,
spec/task-continuity-write-gate), its last part alone (task-continuity-write-gate), or a path as
messages cite it (docs/protocol.md#hello); an #anchor is kept.

Options:
  --print        print the page itself (Markdown) instead of where it is
  -h, --help     show this help

Exit codes: 0 ok; 2 an unknown topic (DOCS_UNKNOWN_TOPIC, with the closest topics), docs that are
not installed (INPUT_NOT_FOUND) or that cannot be listed (INPUT_READ_FAILED).
`;

interface Page {
  /** `protocol`, `spec/index`. */
  readonly topic: string;
  /** The page's path below docs/ (`spec/index.md`). */
  readonly page: string;
}

/** Every installed page, top-level pages first, then each folder's. */
export function docPages(dir: string = docsDirectory): Page[] {
  if (!existsSync(dir))
    throw new CliError(
      'INPUT_NOT_FOUND',
      `the kit's docs are not installed at ${dir}; reinstall @agent-contracts/kit (in the repository: docs/).`,
    );
  const walk = walkFiles(dir, { suffix: '.md' });
  const problems = walkProblemLines(dir, walk);
  if (problems.length)
    throw new CliError(
      'INPUT_READ_FAILED',
      `the kit's docs cannot be listed (${problems.slice(0, 3).join('; ')}); reinstall @agent-contracts/kit.`,
    );
  const pages = walk.files.map(({ relative: page }) => ({ topic: page.replace(/\.md$/, ''), page }));
  const depth = (p: Page) => p.page.split('/').length;
  return pages.sort((a, b) => depth(a) - depth(b) || a.page.localeCompare(b.page));
}

/** The first `# ` heading of a page, or ''. */
function title(page: string): string {
  const text = readFileSync(join(docsDirectory, page), 'utf8');
  return /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? '';
}

/** The page a topic names and the anchor it carries, or a DOCS_UNKNOWN_TOPIC error. */
export function findPage(given: string, pages: readonly Page[]): { page: Page; anchor: string } {
  const hash = given.indexOf('#');
  const anchor = hash < 0 ? '' : given.slice(hash);
  const name = (hash < 0 ? given : given.slice(0, hash))
    .replace(/^(\.\/)?docs\//, '')
    .replace(/\.md$/, '')
    .toLowerCase();
  const page =
    pages.find((p) => p.topic.toLowerCase() === name) ??
    pages.find((p) => p.topic.toLowerCase().split('/').pop() === name);
  if (page) return { page, anchor };
  const topics = pages.map((p) => p.topic);
  const near = topics
    .filter((t) => t.includes(name) || distance(name, t) <= Math.max(2, Math.floor(name.length / 3)))
    .slice(0, 5);
  if (near.length === 0 && name) near.push(closest(name, topics));
  throw new CliError(
    'DOCS_UNKNOWN_TOPIC',
    `no page ${JSON.stringify(given)} in the kit's docs${near.length ? `; did you mean ${near.join(', ')}?` : ''} Run \`agent-contracts docs\` for the list.`,
  );
}

/** `agent-contracts docs`. */
export const docsCommand: Command = {
  name: 'docs',
  summary: 'list the installed documentation pages, or print where one is (or the page, --print)',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'docs', HELP, args, { print: { type: 'boolean' } });
    if (!parsed) return 0;
    const { values, positionals } = parsed;
    if (positionals.length > 1)
      throw new CliError(
        'USAGE_BAD_VALUE',
        'docs takes at most one topic. Run `agent-contracts docs --help`.',
      );
    const pages = docPages();
    const [topic] = positionals;
    if (topic === undefined) {
      if (values.print)
        throw new CliError(
          'USAGE_MISSING_ARGUMENT',
          '--print needs a topic: agent-contracts docs <topic> --print.',
        );
      const width = Math.max(...pages.map((p) => p.topic.length));
      const lines = pages.map((p) => `  ${p.topic.padEnd(width)}  ${title(p.page)}`);
      await io.out(
        `The kit's docs are installed at ${docsRoot()}\n\n${lines.join('\n')}\n\nagent-contracts docs <topic> prints where a page is; --print prints the page.\n`,
      );
      return 0;
    }
    const { page, anchor } = findPage(topic, pages);
    if (values.print) await io.out(readFileSync(join(docsDirectory, page.page), 'utf8'));
    else await io.out(`${docPath(`docs/${page.page}`)}${anchor}\n`);
    return 0;
  },
};
