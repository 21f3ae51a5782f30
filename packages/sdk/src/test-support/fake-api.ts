/**
 * A scripted API for unit tests: each call to `fetch` answers with the next reply and records the request.
 * Not exported from the package (no test double ships).
 */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

export function fakeApi(replies: Reply[]) {
  const requests: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    requests.push(request);
    const reply = replies.shift();
    if (!reply) throw new Error('fake API: no reply left');
    if (reply instanceof Error) throw reply;
    const body = reply.body === undefined ? null : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(body, { status: reply.status, headers: { 'content-type': 'application/json', ...reply.headers } });
  };
  return { fetch, requests };
}

export const JOB_ID = '01932f4e-7a1b-7c3d-8e9f-0a1b2c3d4e5f';

export const fileResult = {
  status: 'success',
  output: 'pdf',
  file_url: 'https://files.example/x.pdf',
  expires_at: '2026-01-03T00:00:00.000Z',
  size_bytes: 1234,
  document: { title: 'Hello', word_count: 1 },
  usage: { used_this_period: 1, included: 100, plan: 'free' },
} as const;

export const failed = (code: string, retryable: boolean, extra: object = {}) => ({
  status: 'failed',
  error: { code, message: `${code} happened`, retryable, ...extra },
});
