// What a request of `npm run chaos` is: the mix the load sends, and the record it keeps of each request, which the
// verdict reads. Shared by the load (on the client host) and the verdict (in the supervisor).
export interface LoadConfig {
  url: string;
  keys: { name: string; key: string; plan: 'free' | 'paid' }[];
  durationMs: number;
  perSecond: number;
  webhookUrl: string;
  outFile: string;
}

export type Output = 'pdf' | 'docx' | 'markdown' | 'html' | 'text' | 'json';

export interface Scenario {
  mode: 'sync' | 'async';
  input: 'markdown' | 'html';
  output: Output;
  webhook: boolean;
}

/** One HTTP exchange of a request: its status (0 when no answer came) and when it ended. */
export interface Attempt {
  status: number;
  code?: string;
  at: number;
  ms: number;
}

/** One request of the load, from its first send to its final answer. */
export interface RequestRecord extends Scenario {
  id: string;
  key: string;
  plan: 'free' | 'paid';
  start: number;
  end: number;
  /** The final answer's status (0: none came before the client gave up). */
  status: number;
  code?: string;
  /** From a 202: the job to find in the read model. Sync answers are matched by request id. */
  jobId?: string;
  /** X-Request-Id of each try under its own Idempotency-Key (a retryable 422 starts a new one). */
  requestIds: string[];
  attempts: Attempt[];
}

/** The mix, taken in turn: every output, sync and async, half of the async ones with a callback. */
export const SCENARIOS: Scenario[] = [
  { mode: 'sync', input: 'markdown', output: 'html', webhook: false },
  { mode: 'async', input: 'markdown', output: 'pdf', webhook: true },
  { mode: 'sync', input: 'markdown', output: 'text', webhook: false },
  { mode: 'async', input: 'html', output: 'docx', webhook: true },
  { mode: 'sync', input: 'markdown', output: 'json', webhook: false },
  { mode: 'async', input: 'markdown', output: 'markdown', webhook: false },
  { mode: 'sync', input: 'html', output: 'pdf', webhook: false },
  { mode: 'async', input: 'html', output: 'html', webhook: true },
  { mode: 'sync', input: 'markdown', output: 'markdown', webhook: false },
  { mode: 'async', input: 'markdown', output: 'text', webhook: false },
  { mode: 'sync', input: 'html', output: 'docx', webhook: false },
  { mode: 'async', input: 'html', output: 'json', webhook: true },
];

const PARAGRAPH = 'Folio turns pages and strings into documents. This paragraph is here to give the converter some words '
  + 'to carry, with **bold** and _emphasis_ and a [link](https://example.com/article) among them. ';
const MARKDOWN = `# A document under load\n\n${Array.from({ length: 6 }, (_, i) => `## Part ${i + 1}\n\n${PARAGRAPH.repeat(3)}`).join('\n\n')}\n\n- one\n- two\n- three\n`;
const HTML = `<!doctype html><html><head><title>A page under load</title></head><body><article><h1>A page under load</h1>${
  Array.from({ length: 6 }, (_, i) => `<h2>Part ${i + 1}</h2><p>${PARAGRAPH.repeat(3)}</p>`).join('')}<ul><li>one</li><li>two</li></ul></article></body></html>`;

export function requestBody(s: Scenario, webhookUrl: string, id: string): Record<string, unknown> {
  return {
    [s.input]: s.input === 'markdown' ? MARKDOWN : HTML,
    output: s.output,
    ...(s.mode === 'async' ? { async: true } : {}),
    ...(s.webhook ? { webhook_url: `${webhookUrl}/callbacks/${id}` } : {}),
  };
}
