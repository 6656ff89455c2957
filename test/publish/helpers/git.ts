// git in a temporary repository of a test, with a fixed identity, so commits work on any machine.
import { run } from './packed-project.js';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

/** A git runner for the repository at `dir()` that throws on failure and returns stdout. */
export function gitIn(dir: () => string): (...args: string[]) => string {
  return (...args) => {
    const r = run('git', args, dir(), IDENTITY);
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
}
