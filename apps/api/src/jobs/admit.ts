import type { NetworkPolicy } from '@folio/network-policy';
import { ApiError } from '../errors.ts';
import { LIMITS, type ConvertRequest } from '../routes/convert-params.ts';

/** What the engine and the interface's limits refuse before any job exists. */
export async function admitRequest(request: ConvertRequest, network: NetworkPolicy): Promise<void> {
  const { input } = request;
  if (input.kind === 'html') {
    if (input.text.length > LIMITS.htmlChars) {
      throw new ApiError('html_too_large', `html is over ${LIMITS.htmlChars} characters`);
    }
    const markup = Buffer.byteLength(input.text.replace(/data:[^"'\s)]+/g, ''));
    if (markup > LIMITS.htmlMarkupBytes) throw new ApiError('html_too_large', 'html is over 2 MB of markup (data: images excluded)');
  }
  if (input.kind === 'url' && !/^https?:\/\//i.test(input.text)) {
    throw ApiError.invalid('url', 'must be an http or https address');
  }
  if (request.webhookUrl) {
    const host = new URL(request.webhookUrl).hostname;
    if (!(await network.allowsHost(host))) {
      throw ApiError.invalid('webhook_url', 'must point at a public host (private, internal and unresolvable addresses are refused)');
    }
  }
}
