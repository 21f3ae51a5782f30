/** The value at percentile `p` (0–100) of `values`, nearest rank, as every benchmark here reports its p50 and p95. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
