// The order test files start in: the `slow` project's first, then `integration`, then `unit`
// (tooling/vitest/suites.ts), each in vitest's own order (the files that failed last time, then
// the longest by the last run's durations, else the largest). On two workers the run ends when
// its last file does: starting the longest files first leaves short ones for the end, not a
// two-minute file that started last.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { PROJECTS, type Project } from './suites.ts';

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = PROJECTS.indexOf(f.project.name as Project);
      return i < 0 ? PROJECTS.length : i;
    };
    // Array.prototype.sort is stable: within a project, vitest's order stays.
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}
