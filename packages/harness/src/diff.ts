import type { Report } from './report.js';

/** How a case changed between two reports. */
export interface ReportDiff {
  /** Failing (or not passing) in A, passing in B. */
  readonly fixed: readonly string[];
  /** Passing in A, not passing in B. */
  readonly broken: readonly string[];
  /** Only in B. */
  readonly added: readonly string[];
  /** Only in A. */
  readonly removed: readonly string[];
  /** Not passing in both, but with a different outcome. */
  readonly changed: readonly string[];
  /** Not passing in A and absent from B (also in `removed`): a regression unless `selectionChanged`. */
  readonly vanished: readonly string[];
  /**
   * Whether the two runs selected different cases (another kit version, `--filter`, `--shard` or
   * `--no-faults`), so that a case may be absent from B for that reason alone.
   */
  readonly selectionChanged: boolean;
}

/** The selection of a run line: what decides which cases it holds. */
const selection = (r: Report) =>
  JSON.stringify([r.run.kit.version, [...r.run.filter].sort(), r.run.shard, r.run.noFaults ?? false]);

/** Compare two reports by case id. */
export function diffReports(a: Report, b: Report): ReportDiff {
  const before = new Map(a.cases.map((c) => [c.id, c.outcome]));
  const after = new Map(b.cases.map((c) => [c.id, c.outcome]));
  const out = {
    fixed: [] as string[],
    broken: [] as string[],
    added: [] as string[],
    removed: [] as string[],
    changed: [] as string[],
  };
  for (const [id, o] of after) {
    const prev = before.get(id);
    if (prev === undefined) out.added.push(id);
    else if (prev !== 'pass' && o === 'pass') out.fixed.push(id);
    else if (prev === 'pass' && o !== 'pass') out.broken.push(id);
    else if (prev !== o) out.changed.push(id);
  }
  const vanished: string[] = [];
  for (const [id, o] of before)
    if (!after.has(id)) {
      out.removed.push(id);
      if (o !== 'pass' && o !== 'not-applicable') vanished.push(id);
    }
  for (const list of [...Object.values(out), vanished]) list.sort();
  return { ...out, vanished, selectionChanged: selection(a) !== selection(b) };
}
