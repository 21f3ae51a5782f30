// Profiles `prepare` of url→pdf and url→markdown in this thread (run with --cpu-prof): where the engine's CPU goes
// before the browser. Not part of npm run bench; a tool for looking.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prepare, type ConversionRequest } from '@folio/conversion';
import { DEFAULT_OPTIONS } from '@folio/events';
import { defaultExecutablePath } from '@folio/pdf';
import { PageFetcher } from '@folio/page-fetch';
import { NetworkPolicy } from '@folio/network-policy';
import { articlePage } from './articles.ts';
import { startImageServer } from './image-server.ts';
import { launchPlainChromium, makePhotos } from './photos.ts';

const browser = await launchPlainChromium(defaultExecutablePath());
const images = await startImageServer(await makePhotos(browser, 3));
await browser.close();
const html = articlePage(1500, images.origin);
const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const fetcher = new PageFetcher({ policy: new NetworkPolicy(['127.0.0.1']) });
let n = 0;
const output = (process.env.OUTPUT ?? 'pdf') as 'pdf' | 'markdown';
const request = (): ConversionRequest => ({ input: { kind: 'url', text: `${origin}/news/story-${n++}` }, output, options: DEFAULT_OPTIONS });
for (let i = 0; i < 20; i++) await prepare(request(), { fetcher });
const runs = Number(process.env.RUNS ?? 200);
const cpu = process.cpuUsage();
const start = performance.now();
for (let i = 0; i < runs; i++) await prepare(request(), { fetcher });
const used = process.cpuUsage(cpu);
console.log(`${output}: ${((performance.now() - start) / runs).toFixed(1)} ms wall, ${((used.user + used.system) / 1000 / runs).toFixed(1)} ms CPU a document`);
site.close();
await images.stop();
