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

/**
 * Time several functions side by side on a shared, noisy machine: `rounds` rounds, each timing a
 * batch of every function in turn (batches sized to about `batchMs` after a warm-up), so that
 * each round's figures were taken within milliseconds of each other. Returns, per function, the
 * median ns per call over the rounds, and the median over the rounds of each function's time as
 * a ratio to the first function's in the same round: ratios taken this way hold under load where
 * figures taken seconds apart do not.
 */
export function interleaved(
  fns: ReadonlyArray<() => void>,
  { rounds = 41, batchMs = 4, warmupMs = 300 }: { rounds?: number; batchMs?: number; warmupMs?: number } = {},
): { ns: number[]; ratio: number[] } {
  // Warm-up: let V8 optimise every function, and size its batch.
  const sizes = fns.map((fn) => {
    const perCall = timePerCall(fn, warmupMs);
    return Math.max(1, Math.round((batchMs * 1e6) / perCall));
  });
  const per: number[][] = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let f = 0; f < fns.length; f++) {
      const fn = fns[f]!;
      const n = sizes[f]!;
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) fn();
      per[f]!.push(Number(process.hrtime.bigint() - start) / n);
    }
  }
  return {
    ns: per.map(median),
    ratio: per.map((xs) => median(xs.map((x, r) => x / per[0]![r]!))),
  };
}
