/**
 * Times buildDocx on a ~1,500-word article with 3 embedded images (images served from memory, so the figure is
 * the package's own work: parsing, image checks, structure, zipping). Prints figures; asserts nothing.
 *
 *   node packages/docx-output/bench/build-docx.ts [runs]
 */
import { availableParallelism, loadavg } from 'node:os';
import { buildDocx, type DocxInput } from '../src/index.ts';
import { JPEG_160X90, png } from '../src/test-support/images.ts';

const SENTENCES = [
  'The survey began at low water, when the mud flats are widest and the channel is narrowest.',
  'Every reading was logged with its time, position and the height of the tide at the staff.',
  'Where the old chart disagreed with the sounder, we ran the transect again from the other end.',
  'The harbour master lent us the launch on the condition that it was back before the evening ferry.',
  'By the third day the pattern was plain: the channel had moved east by almost forty metres.',
  'Sediment samples went into numbered jars, one for every hundred metres of each transect.',
];

function article(words: number): string {
  const parts: string[] = [];
  let count = 0;
  for (let section = 1; count < words; section++) {
    parts.push(`<h2>Section ${section}: <em>findings</em></h2>`);
    for (let p = 0; p < 4 && count < words; p++) {
      const text = Array.from({ length: 4 }, (_, i) => SENTENCES[(section + p + i) % SENTENCES.length]).join(' ');
      parts.push(`<p>${text.replace('readings', '<strong>readings</strong>').replace('chart', '<a href="https://charts.example/42">chart</a>')}</p>`);
      count += text.split(/\s+/).length;
    }
    if (section % 2 === 0) parts.push('<ul><li>Echo sounder</li><li>GPS rover<ul><li>Antenna</li></ul></li></ul>');
    if (section === 3) parts.push('<table><tr><th>Transect</th><th>Depth</th></tr><tr><td>North</td><td>4.2 m</td></tr></table>');
    if (section === 4) parts.push('<pre><code>for r in readings:\n    print(r.depth)</code></pre>');
    if (section <= 3) parts.push(`<figure><img src="https://img.example/${section}" alt="Figure ${section}"><figcaption>Figure ${section}</figcaption></figure>`);
  }
  return parts.join('\n');
}

const IMAGES: Record<string, Buffer> = {
  'https://img.example/1': png(1200, 800), // a large, smooth picture
  'https://img.example/2': png(400, 300, { noise: true }), // an incompressible one, ~360 KB
  'https://img.example/3': JPEG_160X90,
};

const contentHtml = article(1500);
const input: DocxInput = {
  title: 'Surveying the Estuary',
  headerText: 'Coastal Review',
  author: 'Ada Marsh',
  sourceUrl: 'https://coast.example/estuary',
  contentHtml,
  pageSize: 'letter',
  fetchImage: async (url) => (IMAGES[url] ? { data: IMAGES[url], contentType: 'image/png' } : null),
};

const runs = Number(process.argv[2] ?? 30);
const words = contentHtml.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).length;
const imageBytes = Object.values(IMAGES).reduce((sum, image) => sum + image.length, 0);

async function measure(label: string, scenario: DocxInput): Promise<void> {
  for (let i = 0; i < 3; i++) await buildDocx(scenario); // warm up the JIT and module state
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    size = (await buildDocx(scenario)).length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`${label}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, min ${times[0]!.toFixed(1)} ms; docx ${(size / 1024).toFixed(0)} KiB`);
}

console.log(`${words} words, ${runs} runs each (node ${process.version}, ${availableParallelism()} cpus, load ${loadavg()[0]!.toFixed(2)})`);
await measure(`with 3 images (${(imageBytes / 1024).toFixed(0)} KiB)`, input);
await measure('same article, images unavailable', { ...input, fetchImage: async () => null });
