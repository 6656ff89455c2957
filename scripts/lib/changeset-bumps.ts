// The bump levels of changesets, ordered, and the highest bump pending changesets give a package.
import getChangesets from '@changesets/read';

export const BUMPS = ['none', 'patch', 'minor', 'major'] as const;
export type Bump = (typeof BUMPS)[number];

export const atLeast = (bump: Bump, needed: Bump): boolean => BUMPS.indexOf(bump) >= BUMPS.indexOf(needed);

/** package name -> the highest bump the changesets of `root`/.changeset give it (since `ref`). */
export async function pendingBumps(root: string, sinceRef?: string): Promise<Map<string, Bump>> {
  const out = new Map<string, Bump>();
  for (const changeset of await getChangesets(root, sinceRef))
    for (const r of changeset.releases) {
      const bump = r.type as Bump;
      if (!atLeast(out.get(r.name) ?? 'none', bump)) out.set(r.name, bump);
    }
  return out;
}
