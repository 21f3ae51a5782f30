/** The usage period of a moment: its calendar month in UTC, `YYYY-MM`. */
export function periodOf(at: string | Date): string {
  return (at instanceof Date ? at : new Date(at)).toISOString().slice(0, 7);
}

/** Whether a key with this much used and reserved may reserve one more document. */
export function admits(
  counts: { usedThisPeriod: number; usedEver: number; reserved: number },
  caps: { included: number | null; limit: number | null },
): 'ok' | 'quota_exceeded' | 'limit_exceeded' {
  // The key's own limit is the harder stop: it says the key itself is used up, whatever the month.
  if (caps.limit !== null && counts.usedEver + counts.reserved >= caps.limit) return 'limit_exceeded';
  if (caps.included !== null && counts.usedThisPeriod + counts.reserved >= caps.included) return 'quota_exceeded';
  return 'ok';
}
