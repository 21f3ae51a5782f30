import { BlockList, isIP } from 'node:net';
import { HostAnswers } from './host-answers.ts';
import { loopbackAddressesOf } from './loopback-names.ts';

/**
 * Invariant 7: Folio reaches nothing on a private or internal network unless FOLIO_ALLOW_PRIVATE_HOSTS names it.
 * The decision is made on resolved addresses (a public name can point at 127.0.0.1); the allow-list is exact: a
 * host name, an address, or a CIDR range, and `127.0.0.1` does not open `127.0.0.2`.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
    return PRIVATE.check(address, 'ipv6');
  }
  return PRIVATE.check(address, 'ipv4');
}

export class NetworkPolicy {
  private readonly hosts = new Set<string>();
  private readonly ranges = new BlockList();
  private readonly answers: HostAnswers;

  constructor(allow: string[], answers: HostAnswers = new HostAnswers()) {
    this.answers = answers;
    for (const entry of allow.map((e) => e.trim().toLowerCase()).filter(Boolean)) {
      const [address, prefix] = entry.split('/');
      const family = isIP(address!);
      if (family !== 0) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        if (prefix === undefined) this.ranges.addAddress(address!, type);
        else this.ranges.addSubnet(address!, Number(prefix), type);
      } else {
        this.hosts.add(entry.replace(/\.$/, ''));
      }
    }
  }

  /** Whether a connection to `address` (reached through the name `host`) is allowed. */
  allows(host: string, address: string): boolean {
    if (!isPrivateAddress(address)) return true;
    const name = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
    if (this.hosts.has(name)) return true;
    const family = isIP(address);
    return family !== 0 && this.ranges.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * Whether a host is known to be refused: it resolves, and one of its addresses is not allowed. A name that does not
   * resolve now is not known to be refused (DNS failures come and go; fetching it later reports fetch_failed).
   */
  async refusesHost(host: string): Promise<boolean> {
    const name = host.replace(/^\[|\]$/g, '');
    try {
      return (await this.addressesOf(name)).some((a) => !this.allows(name, a.address));
    } catch {
      return false;
    }
  }

  /** Resolves a host and says whether every address it resolves to is allowed. */
  async allowsHost(host: string): Promise<boolean> {
    const name = host.replace(/^\[|\]$/g, '');
    try {
      const addresses = await this.addressesOf(name);
      return addresses.length > 0 && addresses.every((a) => this.allows(name, a.address));
    } catch {
      return false;
    }
  }

  /** An address as itself; a loopback name as loopback (`loopbackAddressesOf`); a name's addresses as the kept answers have them. */
  private addressesOf(name: string): Promise<Array<{ address: string }>> {
    if (isIP(name)) return Promise.resolve([{ address: name }]);
    const loopback = loopbackAddressesOf(name);
    if (loopback) return Promise.resolve(loopback.map((address) => ({ address })));
    return this.answers.addresses(name);
  }
}
export { BlockedAddressError, guardedAgent, literalAllowed } from './guarded-agent.ts';
export { ANSWER_TTL_MS, HostAnswers, type Resolve } from './host-answers.ts';
export { loopbackAddressesOf } from './loopback-names.ts';
