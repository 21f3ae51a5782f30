/** The value at percentile `p` (0–100) of `values`, nearest rank, as every benchmark here reports its p50 and p95. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The middle of `values` (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The mean of `values`; 0 for none. */
export function mean(values: number[]): number {
  return values.reduce((a, c) => a + c, 0) / Math.max(1, values.length);
}
