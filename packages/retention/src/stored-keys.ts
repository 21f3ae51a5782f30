/** Where a job's objects may sit in storage: its input, its result, its file in any output (legacy html/txt too). */
export function storedKeysOf(jobId: string, result: unknown): string[] {
  const keys = new Set([`inputs/${jobId}`, `results/${jobId}/content`, ...['pdf', 'docx', 'html', 'txt'].map((ext) => `files/${jobId}.${ext}`)]);
  const stored = result as { file?: { key?: unknown } | null; content_ref?: { key?: unknown } | null } | null;
  for (const key of [stored?.file?.key, stored?.content_ref?.key]) if (typeof key === 'string') keys.add(key);
  return [...keys];
}
