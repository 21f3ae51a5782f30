// The receiver of callbacks during `npm run chaos`, on a host of its own: an https server that answers 200 to every
// POST and writes each one (headers and raw body) as a JSON line, for the verdict to check afterwards.
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:https';

export interface ReceiverConfig {
  address: string;
  port: number;
  keyFile: string;
  certFile: string;
  /** One JSON line a callback: `ReceivedCallback`. */
  outFile: string;
}

export interface ReceivedCallback {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const config = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ReceiverConfig;
const out = createWriteStream(config.outFile, { flags: 'a' });
const server = createServer({ key: readFileSync(config.keyFile), cert: readFileSync(config.certFile) }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v ?? '']));
    const received: ReceivedCallback = { at: Date.now(), path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
    // Written before the answer: a callback answered 200 is one the verdict sees.
    out.write(`${JSON.stringify(received)}\n`, () => {
      res.writeHead(200);
      res.end('ok');
    });
  });
});
server.listen(config.port, config.address, () => process.stdout.write(`receiver listening on https://${config.address}:${config.port}\n`));
process.on('SIGTERM', () => server.close(() => out.end(() => process.exit(0))));
