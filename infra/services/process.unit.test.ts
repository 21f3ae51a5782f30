import net from 'node:net';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FETCH_BAD_PORTS, FREE_PORTS, freePort, portsOutside } from './process.ts';

describe('freePort', () => {
  it('takes ports outside the kernel’s ephemeral range, which outgoing connections take by themselves', () => {
    expect(portsOutside({ first: 32768, last: 60999 })).toHaveLength(FREE_PORTS.last - FREE_PORTS.first); // but 10080
    expect(portsOutside({ first: 12000, last: 60999 })).toEqual(
      Array.from({ length: 2000 }, (_, i) => FREE_PORTS.first + i).filter((port) => port !== 10080),
    );
    expect(portsOutside({ first: 1024, last: 65535 })).toEqual([]); // then the kernel chooses, as before
    expect(portsOutside(null)).toHaveLength(4999);
  });

  it('never gives a port fetch refuses to reach (the Fetch standard\'s bad ports), as this Node does', async () => {
    // Node refuses a bad port before connecting, so nothing needs to listen; a port it would try is refused by the
    // kernel instead (ECONNREFUSED) or answered, never 'bad port'.
    const refusal = (port: number) =>
      fetch(`http://127.0.0.1:${port}/`).then(
        () => 'answered',
        (err: Error) => ((err.cause as Error | undefined)?.message === 'bad port' ? 'bad port' : 'tried'),
      );
    for (const port of FETCH_BAD_PORTS) expect(await refusal(port), `port ${port}`).toBe('bad port');
    expect(await refusal(10081)).not.toBe('bad port');
    expect(portsOutside(null)).not.toContain(10080);
    expect(portsOutside(null).filter((port) => FETCH_BAD_PORTS.has(port))).toEqual([]);
  });

  it('gives a port a server can listen on, a different one each time', async () => {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      if (FREE_PORTS.first < low! || FREE_PORTS.last > high!) expect(port < low! || port > high!, `port ${port}`).toBe(true);
    }
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen({ port: ports[0], host: '127.0.0.1' }, resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
