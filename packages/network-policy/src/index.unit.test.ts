import { describe, expect, it } from 'vitest';
import { HostAnswers, isPrivateAddress, NetworkPolicy } from './index.ts';

describe('the private-network rule', () => {
  it('knows private, loopback, link-local and mapped addresses', () => {
    for (const a of ['127.0.0.1', '127.0.0.2', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });

  it('opens exactly what the allow-list names', () => {
    const policy = new NetworkPolicy(['127.0.0.1', 'canary.test', '10.9.0.0/16']);
    expect(policy.allows('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(policy.allows('127.0.0.2', '127.0.0.2')).toBe(false);
    expect(policy.allows('canary.test', '127.0.0.5')).toBe(true);
    expect(policy.allows('other.test', '127.0.0.5')).toBe(false);
    expect(policy.allows('x', '10.9.3.4')).toBe(true);
    expect(policy.allows('x', '10.8.3.4')).toBe(false);
    expect(policy.allows('example.com', '93.184.216.34')).toBe(true);
  });

  it('decides on resolved addresses: a name that resolves to loopback is refused', async () => {
    const policy = new NetworkPolicy([]);
    expect(await policy.allowsHost('localhost')).toBe(false);
    expect(await policy.allowsHost('127.0.0.1')).toBe(false);
    expect(await policy.allowsHost('[::1]')).toBe(false);
    expect(await new NetworkPolicy(['localhost']).allowsHost('localhost')).toBe(true);
  });

  it('takes the names kept for loopback as loopback without asking a resolver (RFC 6761)', async () => {
    // A resolver that knows none of them, as on a host whose resolver has no `localhost.` and no `*.localhost`.
    const unknown = new HostAnswers(async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    });
    const policy = new NetworkPolicy([], unknown);
    for (const host of ['localhost.', 'LocalHost', 'app.localhost', 'a.b.localhost.']) {
      expect(await policy.refusesHost(host), host).toBe(true);
      expect(await policy.allowsHost(host), host).toBe(false);
    }
    expect(await new NetworkPolicy(['app.localhost'], unknown).allowsHost('app.localhost.')).toBe(true);
    // Names that only contain the word are names like any other: unknown here, so not known to be refused.
    for (const host of ['localhost.example.com', 'mylocalhost', 'localhost-test']) {
      expect(await policy.refusesHost(host), host).toBe(false);
    }
  });
});
