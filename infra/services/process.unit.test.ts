import net from 'node:net';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FREE_PORTS, freePort, portsOutside } from './process.ts';

describe('freePort', () => {
  it('takes ports outside the kernel’s ephemeral range, which outgoing connections take by themselves', () => {
    expect(portsOutside({ first: 32768, last: 60999 })).toHaveLength(FREE_PORTS.last - FREE_PORTS.first + 1);
    expect(portsOutside({ first: 12000, last: 60999 })).toEqual(Array.from({ length: 2000 }, (_, i) => FREE_PORTS.first + i));
    expect(portsOutside({ first: 1024, last: 65535 })).toEqual([]); // then the kernel chooses, as before
    expect(portsOutside(null)).toHaveLength(5000);
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
