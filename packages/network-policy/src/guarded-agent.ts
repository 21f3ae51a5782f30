import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent } from 'undici';
import type { NetworkPolicy } from './index.ts';
import { loopbackAddressesOf } from './loopback-names.ts';

/** A connection refused by the private-network rule (invariant 7, docs/invariants.md). */
export class BlockedAddressError extends Error {
  readonly code = 'EFOLIOBLOCKED';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or internal address that is not allowed`);
    this.name = 'BlockedAddressError';
  }
}

/**
 * An HTTP agent whose every connection is checked on the address it actually connects to: the name is resolved
 * here, the answers are checked against the policy, and the socket connects to an address that passed. A name that
 * resolves to 127.0.0.1, a redirect to an internal host or a DNS answer that changes between check and connect
 * (rebinding) gets no connection. IP literals never reach `lookup`, so they are checked before the request.
 */
export function guardedAgent(policy: NetworkPolicy, options: { connectTimeoutMs: number; connections?: number }): Agent {
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    const answer = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => policy.allows(hostname, a.address));
      if (allowed.length === 0) {
        return callback(new BlockedAddressError(hostname, addresses[0]?.address ?? '?') as NodeJS.ErrnoException, '', 0);
      }
      if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    };
    const loopback = loopbackAddressesOf(hostname);
    if (loopback) answer(null, loopback.map((address) => ({ address, family: isIP(address) })));
    else dnsLookup(hostname, { ...lookupOptions, all: true, verbatim: true }, answer);
  };
  return new Agent({ connect: { lookup, timeout: options.connectTimeoutMs }, connections: options.connections ?? 32 });
}

/** Whether an IP-literal host (which skips DNS) may be reached. Names are checked at connect time instead. */
export function literalAllowed(policy: NetworkPolicy, hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) === 0 || policy.allows(host, host);
}
