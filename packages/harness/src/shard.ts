import { createHash } from 'node:crypto';

/** A shard selector `i/n` (1-based): the part of the suite one CI machine runs. */
export interface Shard {
  readonly index: number;
  readonly total: number;
}

/** Parse `i/n` (1 <= i <= n); returns null when malformed. */
export function parseShard(text: string): Shard | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return null;
  const index = Number(m[1]);
  const total = Number(m[2]);
  return total >= 1 && index >= 1 && index <= total ? { index, total } : null;
}

/**
 * Whether a case belongs to a shard. Stable: it hashes the case id (SHA-256), so a case stays
 * in its shard when others are added or removed, and every case is in exactly one shard.
 */
export function inShard(id: string, shard: Shard): boolean {
  const h = createHash('sha256').update(id).digest();
  return (h.readUInt32BE(0) % shard.total) + 1 === shard.index;
}

/** Whether a case id matches a glob where `*` matches any run of characters (also `/`). */
export function globMatch(glob: string, id: string): boolean {
  const re = new RegExp(
    `^${glob
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(id);
}
