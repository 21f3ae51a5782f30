import { performance } from 'node:perf_hooks';
import { errors, request, type Agent } from 'undici';
import { literalAllowed, type NetworkPolicy } from '@folio/network-policy';
import type { AttemptResult } from './plan.ts';

export interface CallbackRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The receiver's whole answer time (FOLIO_WEBHOOK_TIMEOUT), connection included. */
  timeoutMs: number;
}

/** Bytes of a receiver's answer read before the connection is dropped: the body is ignored, so no more is taken. */
const ANSWER_BYTES = 64 * 1024;

/**
 * One POST of a callback. It never throws: every way an attempt can end becomes an AttemptResult (the status, or why
 * there was none). The agent (`guardedAgent`) checks each connection on the address it resolves to (invariant 7,
 * docs/invariants.md), so a name that points at 10.x or 127.x at delivery time is refused even if it looked public when
 * the job was accepted; an IP literal skips DNS, so it is checked here. Redirects are never followed: undici's
 * `request` returns a 3xx as it is.
 */
export async function postCallback(agent: Agent, policy: NetworkPolicy, callback: CallbackRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(callback.url);
  } catch {
    return { statusCode: null, error: 'the webhook_url is not a URL', durationMs: 0 };
  }
  if (!literalAllowed(policy, url.hostname)) {
    return { statusCode: null, error: `${url.hostname} is a private or internal address that is not allowed`, durationMs: 0 };
  }
  const signal = AbortSignal.timeout(callback.timeoutMs);
  try {
    const answer = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'user-agent': 'Folio-Webhooks/1.0', ...callback.headers },
      body: callback.body,
      signal,
      headersTimeout: callback.timeoutMs,
      bodyTimeout: callback.timeoutMs,
    });
    // The answer's body is drained (a little of it) so the connection can serve the next callback to this host.
    await answer.body.dump({ limit: ANSWER_BYTES, signal }).catch(() => {});
    return { statusCode: answer.statusCode, error: answer.statusCode >= 300 ? `the receiver answered ${answer.statusCode}` : null, durationMs: elapsed() };
  } catch (error) {
    return { statusCode: null, error: describe(error, callback.timeoutMs), durationMs: elapsed() };
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (
    error instanceof errors.HeadersTimeoutError ||
    error instanceof errors.BodyTimeoutError ||
    error instanceof errors.ConnectTimeoutError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
  ) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : error instanceof Error ? error : null;
  if (!inner) return String(error);
  const code = (inner as { code?: unknown }).code;
  return `${typeof code === 'string' && code !== 'EFOLIOBLOCKED' ? `${code}: ` : ''}${inner.message}`;
}
