// Serves the articles' images from a worker thread (its own event loop, as the web would be), never cached, so
// every render fetches them again as a render of a new article would.
import { Worker } from 'node:worker_threads';

const WORKER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const images = new Map(workerData.map((bytes, i) => ['/img/' + (i + 1) + '.jpg', Buffer.from(bytes)]));
const server = http.createServer({ keepAlive: true }, (req, res) => {
  const body = images.get(req.url);
  if (!body) { res.writeHead(404).end(); return; }
  res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length, 'cache-control': 'no-store' }).end(body);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

/** Serves `images` as /img/1.jpg, /img/2.jpg, … on 127.0.0.1. */
export async function startImageServer(images: Uint8Array[]): Promise<{ origin: string; stop: () => Promise<void> }> {
  const worker = new Worker(WORKER, { eval: true, workerData: images });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { origin: `http://127.0.0.1:${port}`, stop: async () => void (await worker.terminate()) };
}
