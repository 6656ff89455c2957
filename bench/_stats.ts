/** Small helpers shared by the benchmarks. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** Run `fn` for at least `minMs` (after a warm-up) and return ns per call. */
export function timePerCall(fn: () => void, minMs = 300): number {
  for (let i = 0; i < 50; i++) fn();
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < BigInt(minMs) * 1_000_000n) {
    for (let i = 0; i < 20; i++) fn();
    n += 20;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / n;
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);
