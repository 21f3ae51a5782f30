import http from 'node:http';
import { NetworkPolicy } from '@folio/network-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultExecutablePath, EgressProxy, launchChromium, type Resolve } from './index.ts';
import { startServer, type RecordingServer } from './test-support/servers.ts';

/**
 * The boundary on its own: a canary on 127.0.0.2 (private, not allowlisted) and a "public web" server on 127.0.0.1
 * (allowlisted). Names are resolved by a static table standing in for DNS, so a name can point anywhere, change its
 * answer between lookups (rebinding), or answer with several addresses.
 */
let canary: RecordingServer;
let web: RecordingServer;
let proxy: EgressProxy;
const lookups: string[] = [];

function resolverTable(): Resolve {
  let rebinds = 0;
  return async (host) => {
    lookups.push(host);
    if (host === 'canary.test') return ['127.0.0.2'];
    if (host === 'public.test') return ['127.0.0.1'];
    if (host === 'mixed.test') return ['127.0.0.2', '127.0.0.1'];
    if (host === 'rebind.test') return rebinds++ === 0 ? ['127.0.0.1'] : ['127.0.0.2'];
    throw new Error(`ENOTFOUND ${host}`);
  };
}

beforeAll(async () => {
  canary = await startServer('127.0.0.2');
  web = await startServer('127.0.0.1', (req, res) => res.end(`web saw host ${req.headers.host}`));
  proxy = new EgressProxy({ policy: new NetworkPolicy(['127.0.0.1']), resolve: resolverTable() });
  await proxy.listen();
});
afterAll(async () => {
  await proxy.close();
  await canary.close();
  await web.close();
});

/** A plain http: request through the proxy. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT through the proxy; on success, one HTTP request inside the tunnel. */
function connect(authority: string): Promise<{ status: number; body?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0 });
        return;
      }
      let body = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (body += c));
      socket.on('end', () => resolve({ status: 200, body }));
      socket.write(`GET /tunnelled HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the egress proxy', () => {
  it('forwards requests and tunnels to allowed addresses, keeping the Host the client sent', async () => {
    const plain = await get(`http://public.test:${web.port}/page`);
    expect(plain).toEqual({ status: 200, body: `web saw host public.test:${web.port}` });
    const tunnel = await connect(`127.0.0.1:${web.port}`);
    expect(tunnel.status).toBe(200);
    expect(tunnel.body).toContain(`web saw host 127.0.0.1:${web.port}`);
    expect(web.paths).toEqual(expect.arrayContaining(['/page', '/tunnelled']));
  });

  it('refuses private addresses, literal or behind a name, for requests and tunnels alike', async () => {
    const p = canary.port;
    for (const url of [`http://127.0.0.2:${p}/`, `http://canary.test:${p}/`, `http://[::ffff:127.0.0.2]:${p}/`, `http://[::ffff:7f00:2]:${p}/`]) {
      expect((await get(url)).status, url).toBe(403);
    }
    for (const authority of [`127.0.0.2:${p}`, `canary.test:${p}`, `[::ffff:127.0.0.2]:${p}`, `[::1]:${p}`, `0.0.0.0:${p}`]) {
      expect((await connect(authority)).status, authority).toBe(403);
    }
    expect((await get(`http://nowhere.test:${p}/`)).status).toBe(403);
    expect(canary.connections()).toBe(0);
  });

  it('connects to the address it checked: a name that rebinds after the check never reaches the canary', async () => {
    lookups.length = 0;
    const first = await get(`http://rebind.test:${web.port}/rebind`);
    expect(first.status).toBe(200); // went to 127.0.0.1, the answer that was checked
    expect(lookups).toEqual(['rebind.test']); // one lookup: no second one at connect time
    expect((await get(`http://rebind.test:${canary.port}/rebind`)).status).toBe(403); // now it says 127.0.0.2
    expect(canary.connections()).toBe(0);
  });

  it('uses only the allowed address of a name that answers with several', async () => {
    const res = await get(`http://mixed.test:${web.port}/mixed`);
    expect(res.status).toBe(200);
    expect(web.paths).toContain('/mixed');
    expect((await get(`http://mixed.test:${canary.port}/mixed`)).status).not.toBe(200); // 127.0.0.1 has nothing there
    expect(canary.connections()).toBe(0);
  });
});

describe('Chromium behind the egress proxy, even with JavaScript on', () => {
  it('cannot reach a canary by fetch, XHR, WebSocket or image, while a WebSocket to an allowed host gets through', async () => {
    // Only the name public.test is allowlisted here, so a second canary on 127.0.0.1 (the address Chromium must
    // reach the proxy at, and would talk to directly if loopback bypassed the proxy) is off limits too.
    const loopback = await startServer('127.0.0.1');
    const strict = new EgressProxy({ policy: new NetworkPolicy(['public.test']), resolve: resolverTable() });
    const browser = await launchChromium({ executablePath: defaultExecutablePath(), proxyPort: await strict.listen() });
    try {
      const page = await browser.newPage();
      const targets = [`127.0.0.2:${canary.port}`, `canary.test:${canary.port}`, `[::ffff:127.0.0.2]:${canary.port}`, `127.0.0.1:${loopback.port}`, `localhost:${loopback.port}`];
      await page.setContent(`<!doctype html><body>
        ${targets.map((t) => `<img src="http://${t}/img.png">`).join('')}
        <script>
          for (const t of ${JSON.stringify(targets)}) {
            for (const url of ['ws://' + t + '/ws', 'wss://' + t + '/wss']) try { new WebSocket(url); } catch {}
            fetch('http://' + t + '/fetch').catch(() => {});
            const x = new XMLHttpRequest(); x.open('GET', 'http://' + t + '/xhr'); x.send();
          }
          new WebSocket('ws://public.test:${web.port}/allowed-ws');
        </script></body>`);
      await waitFor(() => web.paths.includes('/allowed-ws'));
      await new Promise((r) => setTimeout(r, 300)); // give the refused attempts the same time to arrive
    } finally {
      await browser.close();
      await strict.close();
      await loopback.close();
    }
    expect(canary.connections()).toBe(0);
    expect(loopback.connections()).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
