import { DEFAULT_OPTIONS, jobQueued, newJobId, type JobQueued } from '@folio/events';

/** A realistic article in Markdown (~1,500 words: headings, emphasis, links, lists, a table, code). */
export function sampleArticle(words = 1500): string {
  const sentence = (i: number) =>
    `Sentence ${i} explains how the *pipeline* moves a job through [Kafka](https://kafka.apache.org) and **Postgres** without losing it.`;
  const parts: string[] = ['# An article for the benchmark', ''];
  let count = 0;
  for (let section = 1; count < words; section++) {
    parts.push(`## Section ${section}`, '');
    for (let p = 0; p < 3 && count < words; p++) {
      const sentences = Array.from({ length: 5 }, (_, k) => sentence(section * 100 + p * 10 + k));
      parts.push(sentences.join(' '), '');
      count += sentences.join(' ').split(/\s+/).length;
    }
    parts.push('- first point with `code`', '- second point', '  - nested point', '');
    if (section % 3 === 0) parts.push('| key | value |', '|-----|-------|', '| a | 1 |', '| b | 2 |', '');
  }
  return parts.join('\n');
}

/** `count` async markdown→text requests of `markdown` (each made unique), as the API would queue them for a key. */
export function asyncTextJobs(keyId: string, markdown: string, count: number): JobQueued[] {
  return Array.from({ length: count }, (_, i) =>
    jobQueued({
      job_id: newJobId(),
      request_id: `bench-${i}`,
      key_id: keyId,
      lane: 'async',
      output: 'text',
      input: { kind: 'markdown', text: `${markdown}\n\nJob ${i}.`, ref: null },
      options: DEFAULT_OPTIONS,
      webhook_url: null,
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
    }),
  );
}
