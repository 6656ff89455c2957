// Contract timestamps are RFC 3339 UTC with up to nine fractional digits; Date.parse drops the
// digits past milliseconds, so order comparisons split the fraction off and compare it as text.

function parts(ts: string): [number, string] {
  const dot = ts.indexOf('.');
  if (dot < 0) return [Date.parse(ts), '000000000'];
  const frac = ts.slice(dot + 1, -1);
  return [Date.parse(`${ts.slice(0, dot)}Z`), frac.padEnd(9, '0')];
}

/**
 * Order of two contract timestamps: negative when `a` is earlier, 0 when they denote the same
 * instant, positive when `a` is later.
 *
 * @example
 * compareTimestamps('2026-11-30T06:00:00Z', '2026-11-30T06:00:00.000Z'); // 0
 */
export function compareTimestamps(a: string, b: string): number {
  const [sa, fa] = parts(a);
  const [sb, fb] = parts(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
