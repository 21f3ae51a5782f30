// The load generator's HTTP client for the benchmarks that call the stack: requests on kept-alive connections of
// node:http. The client shares the two cores with what is measured and is not itself measured: the global fetch spent
// ~6 ms of CPU a pdf document against ~2 for node:http (bench/pdf-service, 2026-11-27), which, once the service is
// bound by CPU, is taken from it; and it added 0.4 ms to a sync markdown→html call's p50 of ~10 ms (10.35 against
// 9.93 ms, alternating in one stack, 2026-12-04), which a caller on a lean client does not wait.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Client {
  /** One request; `body` is sent with its length. Resolves once the whole answer is read. */
  call(method: string, url: string, headers?: Record<string, string>, body?: Buffer): Promise<Answer>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** The headers of a JSON request made with an API key. */
export function keyedJson(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

/** A client keeping up to `maxSockets` connections alive to each origin. */
export function keptAliveClient(maxSockets: number): Client {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    call: (method, url, headers = {}, body) =>
      new Promise((done, fail) => {
        const sent = body ? { ...headers, 'content-length': String(body.length) } : headers;
        const req = request(url, { method, agent, headers: sent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', fail);
        });
        req.on('error', fail);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
