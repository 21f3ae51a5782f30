import { lookup } from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { loopbackAddressesOf, type NetworkPolicy } from '@folio/network-policy';

/** Turns a host name into the addresses it may be reached at. The default asks the system resolver (getaddrinfo). */
export type Resolve = (host: string) => Promise<string[]>;

export const systemResolve: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface EgressDecision {
  host: string;
  port: number;
  /** The checked address the connection goes to; absent when refused. */
  address?: string;
  /** Why the destination was refused (private address, unresolvable name, bad target). */
  refused?: string;
}

export interface EgressProxyOptions {
  policy: NetworkPolicy;
  resolve?: Resolve;
  /** How long a connection to the destination may take to open (default 10 s). */
  connectTimeoutMs?: number;
  /** Tunnels and upstream responses idle this long are cut (default 30 s). */
  idleTimeoutMs?: number;
  /** Sees every refusal (for logs and metrics). */
  onRefused?: (decision: EgressDecision) => void;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

function forwardable(rawHeaders: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return out;
}

/** `host:port` of a CONNECT request, IPv6 literals in brackets. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[3]);
  return port > 0 && port < 65536 ? { host: (m[1] ?? m[2])!, port } : undefined;
}

/**
 * The network boundary of the renderer (invariants 7 and 8, docs/invariants.md): an HTTP forward proxy on 127.0.0.1
 * that Chromium must use for every connection, `http:` requests and `CONNECT` tunnels (https, WebSockets) alike. It
 * resolves each name itself, checks every address against the policy, and opens the connection to the address it
 * checked — never by name — so DNS rebinding between the check and the connect cannot reach a private address. Request
 * interception inside Chromium sees only URLs; this sees where bytes actually go.
 */
export class EgressProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<Duplex>();
  private readonly resolve: Resolve;
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  /** Keeps upstream connections alive across sub-resources; keyed by the checked address, never by a name. */
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 32, scheduling: 'lifo' });

  private readonly options: EgressProxyOptions;
  constructor(options: EgressProxyOptions) {
    this.options = options;
    this.resolve = options.resolve ?? systemResolve;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.server = http.createServer({ keepAlive: true });
    this.server.on('connection', (socket) => this.track(socket));
    // A failure inside the proxy costs that one request its connection, never the process.
    this.server.on('request', (req, res) => this.forward(req, res).catch(() => res.destroy()));
    this.server.on('connect', (req, socket, head) => this.tunnel(req, socket, head).catch(() => socket.destroy()));
    // Chromium tunnels WebSockets with CONNECT; an in-band Upgrade through a forward proxy is refused.
    this.server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n'));
  }

  /** Starts listening on 127.0.0.1 (a free port unless one is given); returns the port. */
  async listen(port = 0): Promise<number> {
    if (this.server.listening) return this.port;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return this.port;
  }

  get port(): number {
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('the egress proxy is not listening');
    return address.port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Where a connection to host:port would go, or why it may not. Resolves once; the caller connects to `address`. */
  async decide(host: string, port: number): Promise<EgressDecision> {
    const name = host.replace(/^\[|\]$/g, '');
    if (!name) return { host, port, refused: 'no host' };
    let addresses: string[];
    if (net.isIP(name)) {
      addresses = [name];
    } else {
      try {
        addresses = loopbackAddressesOf(name) ?? (await this.resolve(name));
      } catch (err) {
        return { host, port, refused: `cannot resolve ${name}: ${(err as Error).message}` };
      }
    }
    const address = addresses.find((a) => this.options.policy.allows(name, a));
    if (address === undefined) {
      const shown = addresses.length ? addresses.join(', ') : 'no address';
      return { host, port, refused: `${name} is on a private or internal network (${shown})` };
    }
    return { host, port, address };
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private refuse(decision: EgressDecision): void {
    this.options.onRefused?.(decision);
  }

  /** A plain `http:` request in absolute form (`GET http://host/path`). */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-length': 0 }).end(); // only absolute http: URLs are forwarded
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400, { 'content-length': 0 }).end(); // https goes through CONNECT
      return;
    }
    const decision = await this.decide(url.hostname, Number(url.port || 80));
    if (!decision.address) {
      this.refuse(decision);
      res.writeHead(403, { 'content-length': 0 }).end(); // no detail: it would print into the document
      return;
    }
    if (req.destroyed) return; // Chromium gave up while the name was resolved
    const upstream = http.request({
      host: decision.address, // an address, so no second lookup
      port: decision.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardable(req.rawHeaders), // keeps the Host header Chromium sent
      setHost: false,
      agent: this.agent,
      timeout: this.connectTimeoutMs,
    });
    upstream.on('socket', (socket) => {
      if (!socket.connecting) upstream.setTimeout(this.idleTimeoutMs);
      else socket.once('connect', () => upstream.setTimeout(this.idleTimeoutMs));
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('response', (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, forwardable(upstreamRes.rawHeaders));
      upstreamRes.pipe(res);
      upstreamRes.on('error', () => res.destroy());
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-length': 0 }).end();
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.on('error', () => upstream.destroy()); // Chromium hung up mid-request
    req.pipe(upstream);
  }

  /** A `CONNECT host:port` tunnel: https and WebSockets. */
  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    const decision = target ? await this.decide(target.host, target.port) : { host: req.url ?? '', port: 0, refused: 'bad CONNECT target' };
    if (!decision.address) {
      this.refuse(decision);
      client.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    if (client.destroyed) return; // Chromium gave up while the name was resolved
    const upstream = net.connect({ host: decision.address, port: decision.port });
    this.track(upstream);
    let connected = false;
    upstream.setTimeout(this.connectTimeoutMs);
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(this.idleTimeoutMs);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', () => {
      if (!connected) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    });
    upstream.on('close', () => {
      if (connected) client.destroy();
    });
    client.on('close', () => upstream.destroy());
  }
}
