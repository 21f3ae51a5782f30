import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Stack } from './support/stack.ts';
import { servePages } from './support/pages.ts';

const OUTPUTS = ['pdf', 'docx', 'markdown', 'html', 'text', 'json'] as const;
type Output = (typeof OUTPUTS)[number];

/** How a corpus item is sent: a JSON object, or a raw body with its content type. */
type Item = { name: string; json?: Record<string, unknown>; raw?: (output: Output, async: boolean) => { body: Buffer; type: string }; expectText?: (text: string) => void };

const deep = (open: string, close: string, depth: number, inner: string) => open.repeat(depth) + inner + close.repeat(depth);
const words = 'lorem ipsum dolor sit amet ';
const form = (fields: Array<[string, Buffer | string]>) =>
  Buffer.concat(fields.flatMap(([k, v], i) => [Buffer.from(`${i ? '&' : ''}${k}=`), typeof v === 'string' ? Buffer.from(v) : v]));

/**
 * What the corpus's images are fetched from: bytes built to make a pattern backtrack, served as an SVG. Folio reads an
 * image's type from its bytes, and the pattern that read SVGs once took 55 s on 435 of these bytes and would have
 * taken days on this image: each request held a conversion worker for its whole budget and failed.
 */
const images = await servePages({
  '/backtrack.svg': { type: 'image/svg+xml', body: ('<!DOCTYPE SVG>' + '\t<!---->\t<!----><!DOCTYPE SVG>'.repeat(40)).slice(0, 1000) },
});
let imageFetches = 0;
images.server.on('request', () => imageFetches++);

/**
 * Inputs that are hostile but acceptable. Each must be converted (or, where a rule says so, refused with the
 * interface's error object) through every output, sync and async — never a 5xx, never a hang — and afterwards jobs
 * must still flow through every partition of every topic: one bad request once took down a twelfth of the service.
 */
const CORPUS: Item[] = [
  {
    name: 'NUL in every free-text parameter',
    json: { markdown: '# Null\u0000 byte …\n\nbody\u0000text', title: 'Ti\u0000tle', header_text: 'head\u0000er' },
    expectText: (t) => expect(t).toContain('Null\uFFFD byte'),
  },
  {
    name: 'lone surrogates, high and low',
    json: { markdown: 'high \uD800 low \uDFFF end \uD83D', title: 'x\uDC00y' },
    expectText: (t) => expect(t).toContain('high \uFFFD low \uFFFD end \uFFFD'),
  },
  {
    name: 'bidi controls',
    json: { markdown: 'abc \u202Eevil\u202C \u2066iso\u2069 \u200Fmark \u061Cal', dir: 'rtl', header_text: '\u202Eheader' },
    expectText: (t) => expect(t).toContain('\u202Eevil\u202C'),
  },
  {
    name: 'emoji sequences',
    json: { markdown: 'family 👩‍👩‍👧‍👦 flag 🇫🇷 rainbow 🏳️‍🌈 keycap 1️⃣ tone 👍🏽', title: '👩‍👩‍👧‍👦 🇫🇷' },
    expectText: (t) => expect(t).toContain('👩‍👩‍👧‍👦 flag 🇫🇷 rainbow 🏳️‍🌈 keycap 1️⃣ tone 👍🏽'),
  },
  {
    name: 'html with NUL and surrogates',
    json: { html: '<p>x\u0000y</p><p>lone \uD800</p><a href="/rel">rel</a>', source_url: 'https://example.com/a/', title: 'h\u0000' },
    expectText: (t) => expect(t).toContain('lone \uFFFD'),
  },
  {
    name: 'invalid UTF-8 bytes in a urlencoded body',
    raw: (output, async) => ({
      type: 'application/x-www-form-urlencoded',
      body: form([['markdown', Buffer.concat([Buffer.from('raw '), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(' escaped %FF%ED%A0%80 nul %00 end')])], ['output', output], ['async', String(async)]]),
    }),
    expectText: (t) => expect(t).toMatch(/^raw \uFFFD\uFFFD\( escaped \uFFFD+ nul \uFFFD end$/),
  },
  {
    name: 'invalid UTF-8 bytes and NUL in a multipart body',
    raw: (output, async) => {
      const b = 'folio-boundary';
      const field = (name: string, value: Buffer | string) =>
        Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), typeof value === 'string' ? Buffer.from(value) : value, Buffer.from('\r\n')]);
      return {
        type: `multipart/form-data; boundary=${b}`,
        body: Buffer.concat([
          field('markdown', Buffer.concat([Buffer.from('multi '), Buffer.from([0xff, 0x00, 0xe2, 0x82]), Buffer.from(' part')])),
          field('title', Buffer.from([0x54, 0x00, 0xc0])),
          field('output', output),
          field('async', String(async)),
          Buffer.from(`--${b}--\r\n`),
        ]),
      };
    },
    expectText: (t) => expect(t).toContain('multi \uFFFD\uFFFD\uFFFD part'),
  },
  {
    name: 'a 300,000-character single line of markdown',
    json: { markdown: words.repeat(Math.ceil(300_000 / words.length)).slice(0, 300_000) },
    expectText: (t) => expect(t.length).toBeGreaterThan(290_000),
  },
  {
    name: 'a 300,000-character unbreakable line of html',
    json: { html: `<p>${'x'.repeat(300_000)}</p>`, title: 'unbroken' },
    expectText: (t) => expect(t).toContain('x'.repeat(1000)),
  },
  {
    name: 'html nested 10,000 deep',
    json: { html: deep('<div><span>', '</span></div>', 5_000, 'deep inside'), title: 'nested' },
    expectText: (t) => expect(t).toContain('deep inside'),
  },
  {
    name: 'markdown nested 10,000 deep',
    json: { markdown: `${'> '.repeat(10_000)}quoted deep\n\n${deep('<div>', '</div>', 10_000, 'raw deep')}` },
    expectText: (t) => expect(t).toContain('quoted deep'),
  },
  {
    // CommonMark's pathological inputs, which marked (Folio's parser until then) took minutes on: each request held a
    // worker until the render timeout and was refused with render_timeout.
    name: 'markdown built to make parsers slow',
    json: { markdown: `${'[a](<b'.repeat(3_000)}\n\n${'[a]('.repeat(5_000)}\n\n${'_a*'.repeat(10_000)}\n\nthe end of the slow markdown` },
    expectText: (t) => expect(t.endsWith('the end of the slow markdown')).toBe(true),
  },
  {
    // A browser lays it out as 80 rows of 80,000 columns: docx's importer ran out of memory, Chromium took past 20 s.
    name: 'a 4 KB table whose cells span 65,534 rows and 1,000 columns',
    json: { html: `<table>${'<tr><td rowspan="65534" colspan="1000">spanning</td></tr>'.repeat(80)}</table><p>after the table</p>` },
    expectText: (t) => expect(t).toContain('after the table'),
  },
  {
    name: 'a table of a thousand one-cell rows and one row of a thousand cells',
    json: { html: `<table>${'<tr><td>short</td></tr>'.repeat(1000)}<tr>${'<td>w</td>'.repeat(1000)}</tr></table><p>after the table</p>` },
    expectText: (t) => expect(t).toContain('after the table'),
  },
  {
    // Plain text made HTML: Chromium printed one paragraph's lines again on every page it spanned (14.8 s alone).
    name: 'ten thousand lines parted by <br> in one paragraph',
    json: { html: `<p>${'a line of its own<br>'.repeat(10_000)}</p><p>after the lines</p>` },
    expectText: (t) => expect(t).toContain('after the lines'),
  },
  {
    // The sanitiser unwraps an element it does not allow, keeping its content: jsdom walked the siblings at each
    // child moved and each wrapper removed, and these 375 KB took 87 s to text, past the worker's budget
    // (render_timeout), before @folio/dom `sibling-walks.ts`; now under 2 s.
    name: '8,000 unknown elements side by side, each unwrapped by the sanitiser',
    json: { html: Array.from({ length: 8_000 }, (_, i) => `<x-card><h4>card ${i}</h4><p>text</p></x-card>`).join('\n') + '<p>after the cards</p>' },
    expectText: (t) => expect(t).toMatch(/card 7999\s+text\s+after the cards$/),
  },
  {
    // jsdom looked an attribute up by scanning its element's attributes, as it set each one and as DOMPurify removed
    // each: 60,000 on one element took 44 s to text, these 1.8 MB past the worker's budget (@folio/dom
    // `attribute-lookups.ts`).
    name: 'one element of 90,000 attributes',
    json: { html: `<p ${Array.from({ length: 90_000 }, (_, i) => `data-a${i}="${i}"`).join(' ')}>attributes</p><p>after the attributes</p>` },
    expectText: (t) => expect(t).toMatch(/attributes\s+after the attributes$/),
  },
  {
    // Chromium's tagging of one block grows with the square of its runs: printed tagged, four at a time, a paragraph
    // like it ran past the 20 s print budget (render_timeout). A block of over 2,000 elements prints untagged
    // (`print-options.ts`; the rule is tested against Chromium in `pdf/src/renderer.browser.test.ts`).
    name: 'one paragraph of 8,000 bold words',
    json: { html: `<p>${Array.from({ length: 8_000 }, (_, i) => `<b>bold ${i}</b> word`).join(' ')}</p><p>after the paragraph</p>` },
    expectText: (t) => expect(t).toMatch(/bold 7999 word\s+after the paragraph$/),
  },
  {
    name: 'an image whose bytes are built to make a pattern backtrack',
    json: { html: `<p>before the image</p><figure><img src="${images.origin}/backtrack.svg" alt="x"><figcaption>its caption</figcaption></figure><p>after the image</p>` },
    expectText: (t) => expect(t).toContain('after the image'),
  },
  {
    name: 'a title of exactly 500 characters',
    json: { markdown: 'body', title: 'T'.repeat(500) },
  },
];

describe('hostile but acceptable input', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    // The image site on loopback stands in for the public web.
    stack = await Stack.start({ env: { FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    key = await stack.createKey('paid');
  });
  afterAll(async () => {
    await stack?.stop();
    images.server.close();
  });

  async function send(item: Item, output: Output, async: boolean): Promise<{ status: number; body: any }> {
    if (item.raw) {
      const { body, type } = item.raw(output, async);
      const response = await fetch(`${stack.url}/v2/convert`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body: new Uint8Array(body) });
      return { status: response.status, body: await response.json() };
    }
    return stack.request('POST', '/v2/convert', { key, json: { ...item.json, output, async } });
  }

  /** The result of one request: the sync body, or the async job's result once it succeeded. */
  async function outcome(item: Item, output: Output, async: boolean): Promise<any> {
    const response = await send(item, output, async);
    const where = `${item.name} → ${output}${async ? ' (async)' : ''}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
    if (!async) {
      expect(response.status, where).toBe(200);
      return response.body;
    }
    expect(response.status, where).toBe(202);
    const job = await stack.waitForJob(key, response.body.job_id, 120_000);
    expect(job.status, `${where} ended ${JSON.stringify(job.error)}`).toBe('succeeded');
    return job.result;
  }

  it('converts every item through every output, sync and async', async () => {
    const cases = CORPUS.flatMap((item) => OUTPUTS.flatMap((output) => [false, true].map((async) => ({ item, output, async }))));
    // Four at a time: the matrix is the point, not the load.
    const queue = [...cases];
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          try {
            const result = await outcome(c.item, c.output, c.async);
            expect(result.status).toBe('success');
            if (c.output === 'text' && c.item.expectText) c.item.expectText(result.content);
            if (c.item.name.startsWith('a title of exactly 500')) expect(result.document.title).toHaveLength(500);
          } catch (error) {
            failures.push(`${c.item.name} → ${c.output}${c.async ? ' (async)' : ''}: ${(error as Error).message.split('\n')[0]}`);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    // The image was fetched (and its bytes read) for the outputs that show images.
    expect(imageFetches).toBeGreaterThan(0);
    // Nothing had to be parked: everything was made well-formed at the door.
    expect(await stack.sql`select * from parked_events`).toEqual([]);
  });

  it('refuses, with the interface error naming the parameter, what a rule forbids', async () => {
    const refused = async (json: Record<string, unknown>, parameter: string) => {
      const response = await stack.request('POST', '/v2/convert', { key, json: { output: 'text', ...json } });
      expect(response.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_parameters', retryable: false });
      expect(response.body.error.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
    };
    await refused({ markdown: 'x', title: 'T'.repeat(501) }, 'title');
    await refused({ markdown: 'x', header_text: 'H'.repeat(501) }, 'header_text');
    await refused({ markdown: 'x', lang: 'en\u0000' }, 'lang');
    await refused({ url: 'https://exa\u0000mple.com/article' }, 'url');
    await refused({ markdown: 'x', css_url: 'not a url \u0000' }, 'css_url');
    // A NUL made U+FFFD leaves no valid URI (URIs are ASCII): refused at the door, naming it.
    await refused({ html: '<p>x</p>', source_url: 'https://example.com/a\u0000b/' }, 'source_url');
    await refused({ markdown: 'x', async: true, webhook_url: 'https://example.com/hook\u0000' }, 'webhook_url');
  });

  it('still flows afterwards: a fresh job in every partition of every topic succeeds within seconds', async () => {
    const partitions = Number(stack.env.FOLIO_TOPIC_PARTITIONS);
    const covered = new Map<string, number>();
    const slowest: number[] = [];
    for (let i = 0; i < 80 && covered.size < 3 * partitions; i++) {
      const async = i % 2 === 1;
      const requestId = `flow-${randomUUID()}`;
      const started = Date.now();
      const response = await stack.request('POST', '/v2/convert', {
        key,
        headers: { 'x-request-id': requestId },
        json: { markdown: `flow **${i}**`, output: 'text', async },
      });
      expect(response.status).toBe(async ? 202 : 200);
      if (async) expect((await stack.waitForJob(key, response.body.job_id, 10_000)).status).toBe('succeeded');
      slowest.push(Date.now() - started);
      const rows = await stack.sql<{ topic: string; partition: number }[]>`
        select h.topic, h.partition from job_history h join jobs j using (job_id)
        where j.request_id = ${requestId} and h.type in ('JobQueued', 'JobSucceeded')`;
      expect(rows).toHaveLength(2);
      for (const r of rows) covered.set(`${r.topic}#${r.partition}`, (covered.get(`${r.topic}#${r.partition}`) ?? 0) + 1);
    }
    expect(covered.size).toBe(3 * partitions);
    expect(Math.max(...slowest)).toBeLessThan(10_000);
  });
});
