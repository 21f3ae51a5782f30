import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export { selfSignedCertificate } from '../../infra/certificate.ts';

export interface ReceivedCallback {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes, as sent. */
  body: Buffer;
  at: number;
}

/** How the receiver answers one POST: a status (and headers), after an optional delay. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * A real https receiver of callbacks on loopback. Each path answers from its own script, one answer per request in
 * turn (the last one repeats; 200 when none was given), and every request is recorded with its raw bytes.
 */
export class Receiver {
  readonly received: ReceivedCallback[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly listeners = new Set<() => void>();
  private server!: Server;
  origin = '';

  static async start(tls: { key: Buffer; cert: Buffer }, onRequest?: (callback: ReceivedCallback) => Promise<void>): Promise<Receiver> {
    const receiver = new Receiver();
    receiver.server = createServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const callback: ReceivedCallback = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
        const script = receiver.scripts.get(callback.path) ?? [];
        const answer = (script.length > 1 ? script.shift() : script[0]) ?? { status: 200 };
        // What the test does on arrival happens before the callback counts as received (and before the answer).
        await onRequest?.(callback).catch(() => {});
        receiver.received.push(callback);
        for (const listener of receiver.listeners) listener();
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(answer.status, answer.headers ?? {});
          res.end('ok');
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
    receiver.origin = `https://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** Scripts the answers of a path. */
  answer(path: string, ...answers: Answer[]): string {
    this.scripts.set(path, answers);
    return path;
  }

  at(path: string): ReceivedCallback[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `count` requests reached `path`. */
  async waitFor(path: string, count: number, timeoutMs = 60_000): Promise<ReceivedCallback[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path} got ${this.at(path).length} of ${count} callbacks in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const done = () => {
          this.listeners.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, 200);
        this.listeners.add(done);
      });
    }
    return this.at(path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}
