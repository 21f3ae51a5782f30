import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on a loopback address that records every TCP connection and request it sees. */
export interface RecordingServer {
  readonly origin: string;
  readonly port: number;
  /** Every TCP connection accepted (a CONNECT tunnel or a TLS attempt counts too, not only HTTP requests). */
  readonly connections: () => number;
  /** The request paths seen, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

export async function startServer(host: string, handler: http.RequestListener = (_req, res) => res.end('ok')): Promise<RecordingServer> {
  const paths: string[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req, res);
  });
  server.on('connection', () => {
    connections += 1;
  });
  // A WebSocket handshake is a request too: record it and hang up.
  server.on('upgrade', (req, socket) => {
    paths.push(req.url ?? '');
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `http://${shown}:${port}`,
    port,
    connections: () => connections,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
