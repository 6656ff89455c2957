// Root causes of a run's failures: the same difference in many cases is one cause, shown once
// with its count and its cases, by the console summary and the HTML report alike. A cause is a
// shape difference (the same pointer, array indices aside, and keyword of the same schema), a
// behaviour difference (the same pointer with the same expected and actual value), or, for a
// case without differences (a timeout, a crash, a scenario's check), its outcome and headline.
import { generalPointer } from './compare/shape.js';
import type { Difference } from './json-diff.js';
import type { CaseLine } from './report.js';

/** One cause and the cases it fails. */
export interface Cause {
  /** Identifies the cause within the run. */
  readonly key: string;
  readonly kind: 'shape' | 'behaviour' | 'outcome';
  /** The cause in words (strings from the report, not yet escaped for any output). */
  readonly text: string;
  /** Ids of the cases it fails, in report order, each once. */
  readonly cases: readonly string[];
}

/** The cause of one difference. */
export function causeOf(d: Difference): Pick<Cause, 'key' | 'kind' | 'text'> {
  if (d.kind === 'shape' || d.keyword !== undefined) {
    const pointer = generalPointer(d.pointer) || '(the reply)';
    const message = d.message ? `: ${d.message}` : '';
    return {
      key: `shape\u0000${generalPointer(d.pointer)}\u0000${d.keyword ?? ''}\u0000${d.schema ?? ''}`,
      kind: 'shape',
      text: `${pointer} breaks ${d.schema ?? 'its schema'} (${d.keyword ?? ''}${message})`,
    };
  }
  return {
    key: `behaviour\u0000${d.pointer}\u0000${d.expected ?? ''}\u0001${d.actual ?? ''}`,
    kind: 'behaviour',
    text: `${d.pointer || '(the reply)'}: expected ${d.expected ?? '(nothing)'}, got ${d.actual ?? '(nothing)'}`,
  };
}

/** Every difference of a case line: its headline step's, then its later steps'. */
export function caseDifferences(c: CaseLine): Difference[] {
  return [...(c.differences ?? []), ...(c.afterFailure ?? []).flatMap((s) => s.differences ?? [])];
}

/** The cause of a case without differences: its outcome and headline. */
const outcomeCause = (c: CaseLine): Pick<Cause, 'key' | 'kind' | 'text'> => ({
  key: `outcome\u0000${c.outcome}\u0000${c.detail}`,
  kind: 'outcome',
  text: `${c.outcome}: ${c.detail}`,
});

/** The causes of one case, each once, in the order its differences come. */
export function causesOfCase(c: CaseLine): Array<Pick<Cause, 'key' | 'kind' | 'text'>> {
  const ds = caseDifferences(c);
  if (!ds.length) return [outcomeCause(c)];
  const seen = new Map<string, Pick<Cause, 'key' | 'kind' | 'text'>>();
  for (const d of ds) {
    const cause = causeOf(d);
    if (!seen.has(cause.key)) seen.set(cause.key, cause);
  }
  return [...seen.values()];
}

/**
 * The causes of the cases given (those that did not pass), the most frequent first (ties in the
 * order they first appear).
 */
export function rootCauses(failing: readonly CaseLine[]): Cause[] {
  const causes = new Map<
    string,
    { cause: Pick<Cause, 'key' | 'kind' | 'text'>; cases: string[]; first: number }
  >();
  for (const c of failing)
    for (const cause of causesOfCase(c)) {
      const entry = causes.get(cause.key) ?? { cause, cases: [], first: causes.size };
      entry.cases.push(c.id);
      causes.set(cause.key, entry);
    }
  return [...causes.values()]
    .sort((a, b) => b.cases.length - a.cases.length || a.first - b.first)
    .map(({ cause, cases }) => ({ ...cause, cases }));
}

/** How many causes of each layer a summary or report lists by number (docs/cli.md#root-causes). */
export const CAUSES_LISTED = 20;

/**
 * The causes a summary or report lists by number, in the order it lists them: those that say
 * what the implementation did (a behaviour difference, an outcome) before those of shape, up to
 * `limit` of each, each layer most frequent first as given. An older shape breaks many members in
 * many cases, so its causes would otherwise push a behaviour bug that fails fewer cases out of
 * the list. The causes not listed are shown whole under their cases; `unlisted` counts them.
 */
export function listedCauses<T>(
  entries: readonly T[],
  isShape: (entry: T) => boolean,
  limit: number = CAUSES_LISTED,
): { listed: T[]; unlisted: number } {
  const behaviour = entries.filter((e) => !isShape(e)).slice(0, limit);
  const shape = entries.filter((e) => isShape(e)).slice(0, limit);
  const listed = [...behaviour, ...shape];
  return { listed, unlisted: entries.length - listed.length };
}
