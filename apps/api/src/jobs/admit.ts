import type { NetworkPolicy } from '@folio/network-policy';
import { ApiError, type ParameterProblem } from '../errors.ts';
import { LIMITS, type ConvertRequest } from './convert-request.ts';

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
  // Addresses the service would fetch are refused here when they lead to a private or internal network: the caller
  // learns which parameter at once, and no job is made for a fetch that could never happen. (Fetching checks again
  // on every connection, so a name that changes its answer later is still refused then.)
  const fetched: Array<[string, string | null]> = [
    ['url', input.kind === 'url' ? input.text : null],
    ['css_url', request.options.css_url],
    ['header_image_url', request.options.header_image_url],
  ];
  const problems: ParameterProblem[] = [];
  for (const [parameter, address] of fetched) {
    if (!address) continue;
    const host = hostOf(address);
    if (host === null) problems.push({ parameter, message: 'must be an http or https address' });
    else if (await network.refusesHost(host)) problems.push({ parameter, message: `${host} is a private or internal address` });
  }
  if (problems.length > 0) throw ApiError.invalidAll(problems);
  if (request.webhookUrl) {
    const host = new URL(request.webhookUrl).hostname;
    if (!(await network.allowsHost(host))) {
      throw ApiError.invalid('webhook_url', 'must point at a public host (private, internal and unresolvable addresses are refused)');
    }
  }
}

function hostOf(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : null;
  } catch {
    return null;
  }
}
