// `npm run image:smoke` (or `npm run image -- --smoke`, after the build): Folio run from its image against real
// services. Starts Kafka, the schema registry, Postgres and S3Proxy on this machine as `npm start` does (infra/local.ts,
// free ports, state in .folio/image-smoke, wiped first), then the projector, a renderer, the dispatcher and the API as
// containers of the image (`podman run --network host`, each listening on loopback only), makes a key with the
// image's CLI, converts to every output through the API — a Markdown document with Greek, Cyrillic, CJK and emoji to
// each of the six, a page of a local site to pdf (its image fetched under the network rule and printed), one
// background job with a signed callback — checks each result and each app's metrics, and stops everything. Exit
// code 1 on any failure, with the end of every app's log.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { pdfFonts, pdfImages, pdfText } from '@folio/pdf/test-support/poppler';
import { solidPng } from '@folio/pdf/test-support/png';
import { pollUntil } from '../cluster/cluster.ts';
import { startLocalInfra, type LocalInfra } from '../local.ts';
import { freePort, tailFile } from '../services/index.ts';
import { servePages } from '../../tests/support/pages.ts';
import { Receiver, selfSignedCertificate } from '../../tests/support/receiver.ts';
import { IMAGE, imageId, podman, podmanEnv, spawnPodman } from './podman.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const stateDir = path.join(root, '.folio', 'image-smoke');
const logDir = path.join(stateDir, 'logs');
const say = (line: string) => process.stdout.write(`smoke: ${line}\n`);
const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

const APPS = ['projector', 'renderer', 'dispatcher', 'api'] as const;
type App = (typeof APPS)[number];
/** Where the receiver's certificate is inside the containers (the dispatcher trusts it through NODE_EXTRA_CA_CERTS). */
const CA_IN_CONTAINER = '/run/folio-smoke/receiver.pem';

interface Container {
  app: App;
  name: string;
  child: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
}

const containers: Container[] = [];
let infra: LocalInfra | undefined;

/** One app of the image in the foreground, its output in <logs>/<app>.log; removed when it stops (--rm). */
function runContainer(app: App, envFile: string, caFile: string, extraEnv: Record<string, string>): Container {
  const name = `folio-smoke-${app}-${process.pid}`;
  const logFile = path.join(logDir, `${app}.log`);
  const log = fs.openSync(logFile, 'w');
  const child = spawnPodman([
    'run', '--rm', '--name', name, '--network', 'host', '--env-file', envFile,
    ...Object.entries(extraEnv).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    '--volume', `${caFile}:${CA_IN_CONTAINER}:ro`, IMAGE, app,
  ], ['ignore', log, log]);
  fs.closeSync(log);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const container = { app, name, child, logFile, exited };
  containers.push(container);
  return container;
}

/**
 * SIGTERM through `podman stop` (tini hands it to the app, which finishes its work), SIGKILL after 35 s. Returns the
 * apps that did not exit with 0 (`podman run` exits with its container's code).
 */
async function stopContainers(deadlineSeconds = 35): Promise<string[]> {
  const codes = await Promise.all(containers.map(async (c) => {
    if (c.child.exitCode === null && c.child.signalCode === null) spawnPodman(['stop', '--time', String(deadlineSeconds), c.name], 'ignore');
    return [c.app, await c.exited] as const;
  }));
  return codes.filter(([, code]) => code !== 0).map(([app, code]) => `${app} exited with ${code}`);
}

// Last resort when this process ends with containers still running (an uncaught error): removed at once.
process.on('exit', () => {
  const running = containers.filter((c) => c.child.exitCode === null && c.child.signalCode === null).map((c) => c.name);
  if (running.length) spawnSync('podman', ['rm', '--force', '--time', '0', ...running], { env: podmanEnv(), stdio: 'ignore' });
});
// Interrupted: the checks under way are dropped, and the apps get 5 s (one waiting on a conversion would otherwise
// wait out its deadline for a renderer stopped at the same moment).
let interrupted = false;
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    interrupted = true;
    say(`${signal}: stopping`);
    void shutdown(5).finally(() => process.exit(code));
  });
}

async function shutdown(deadlineSeconds?: number): Promise<void> {
  await stopContainers(deadlineSeconds);
  await infra?.stop();
  infra = undefined;
}

/** The parts of a conversion answer the checks read. */
interface Converted {
  status: string;
  output: string;
  content?: string;
  file_url?: string;
  size_bytes?: number;
  document?: { title?: string; content_markdown?: string; content_html?: string };
}

const MARKDOWN = [
  '# Folio from its image',
  '',
  'Every output from one container image: **bold** words, Ελληνικά, Кириллица, 日本語の文章, 한국어 and 📄.',
  '',
  '- one',
  '- two',
].join('\n');

/** What each output must look like; throws naming what is wrong. Files are fetched from their links. */
async function check(output: string, result: Converted): Promise<string> {
  if (result.status !== 'success' || result.output !== output) throw new Error(`answered ${JSON.stringify(result).slice(0, 300)}`);
  const fetchFile = async (): Promise<Buffer> => {
    const response = await fetch(result.file_url!);
    if (!response.ok) throw new Error(`its file_url answered ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length !== result.size_bytes) throw new Error(`the file has ${bytes.length} bytes, size_bytes says ${result.size_bytes}`);
    return bytes;
  };
  const expect = (ok: boolean, what: string) => {
    if (!ok) throw new Error(what);
  };
  switch (output) {
    case 'pdf': {
      const pdf = await fetchFile();
      expect(pdf.subarray(0, 5).toString() === '%PDF-', 'the file is no PDF');
      const text = await pdfText(pdf);
      expect(text.includes('Folio from its image'), `its text lacks the heading: ${text.slice(0, 200)}`);
      const fonts = await pdfFonts(pdf);
      expect(fonts.some((f) => f.startsWith('NotoSans')), `no Noto Sans among its fonts: ${fonts.join(', ')}`);
      return `${pdf.length} bytes`;
    }
    case 'docx': {
      const docx = await fetchFile();
      expect(docx.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')), 'the file is no zip');
      expect(docx.includes('word/document.xml'), 'the zip holds no word/document.xml');
      return `${docx.length} bytes`;
    }
    case 'json':
      expect(!!result.document?.content_markdown?.includes('日本語') && !!result.document.content_html?.includes('<strong>bold</strong>'),
        `document: ${JSON.stringify(result.document).slice(0, 200)}`);
      return `document with ${Object.keys(result.document!).length} fields`;
    default: {
      const content = result.content ?? '';
      const mark = { markdown: '**bold**', html: '<strong>bold</strong>', text: 'bold words' }[output];
      expect(!!mark && content.includes(mark) && content.includes('日本語'), `content: ${content.slice(0, 200)}`);
      return `${content.length} characters`;
    }
  }
}

async function main(): Promise<void> {
  const t0 = performance.now();
  if (!imageId(IMAGE)) throw new Error(`there is no ${IMAGE}: build it with npm run image`);
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });

  // The services, on ports of their own so that an `npm start` or a test run on this machine is not disturbed.
  const ports = { kafka: await freePort(), kafkaController: await freePort(), registry: await freePort(), postgres: await freePort(), s3: await freePort() };
  const tInfra = performance.now();
  infra = await startLocalInfra({ stateDir, ports, s3: true, log: (line) => say(line) });
  say(`services ready (${seconds(tInfra)})`);

  // A site standing in for the web (loopback is allowed below), and an https receiver of callbacks.
  const photo = solidPng(240, 160);
  const site = await servePages({
    '/story': {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><title>A story from the site</title></head><body><article><h1>A story from the site</h1>
<p>${'The river rose through the night and the library moved its books upstairs. '.repeat(8)}</p>
<figure><img src="/photo.png" alt="The river" width="240" height="160"><figcaption>The river at noon</figcaption></figure>
<p>${'By morning the water had gone down and the shelves were dry. '.repeat(8)}</p></article></body></html>`,
    },
    '/photo.png': { type: 'image/png', body: photo },
  });
  const tls = selfSignedCertificate();
  const receiver = await Receiver.start(tls);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...infra.env,
    FOLIO_HOST: '127.0.0.1',
    FOLIO_PORT: String(port),
    FOLIO_PUBLIC_URL: url,
    FOLIO_KEY_SECRET: randomBytes(32).toString('hex'),
    FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: CA_IN_CONTAINER,
  };
  const envFile = path.join(stateDir, 'app.env');
  fs.writeFileSync(envFile, Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(''), { mode: 0o600 });

  try {
    const tApps = performance.now();
    // Where each app serves GET /metrics: the API on its own port, the others on free ports (their defaults,
    // 9464–9466, are an `npm start`'s on this machine).
    const metrics: Record<App, string> = { api: `${url}/metrics`, renderer: '', projector: '', dispatcher: '' };
    for (const app of APPS) {
      const metricsPort = app === 'api' ? undefined : await freePort();
      if (metricsPort) metrics[app] = `http://127.0.0.1:${metricsPort}/metrics`;
      runContainer(app, envFile, tls.caFile, metricsPort ? { FOLIO_METRICS_PORT: String(metricsPort) } : {});
    }
    const exited = () => containers.find((c) => c.child.exitCode !== null);
    // Ready: every consumer group jobs need has a member (docs/architecture.md); or one of them is gone already.
    const ready = await pollUntil(async () => !!exited() || (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3_000) })).ok, 180_000, 500);
    const dead = exited();
    if (dead) throw new Error(`the ${dead.app} container exited (${dead.child.exitCode})`);
    if (!ready) throw new Error(`the API at ${url} was not ready after 180 s`);
    say(`api, renderer, projector and dispatcher running from ${IMAGE}, ready (${seconds(tApps)})`);

    const tKey = performance.now();
    const key = podman(['run', '--rm', '--network', 'host', '--env-file', envFile, IMAGE, 'cli', 'keys', 'create', '--plan', 'paid'])
      .trim().split('\n').at(-1)!;
    say(`ok   a paid key made with the image's CLI (${seconds(tKey)})`);

    const convert = async (body: Record<string, unknown>) => {
      const response = await fetch(`${url}/v2/convert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Converted & { job_id?: string };
      if (response.status !== 200 && response.status !== 202) throw new Error(`${JSON.stringify(body).slice(0, 80)}: HTTP ${response.status} ${JSON.stringify(json)}`);
      return json;
    };

    const failures: string[] = [];
    const attempt = async (what: string, run: () => Promise<string>) => {
      const t = performance.now();
      try {
        if (!interrupted) say(`ok   ${what}: ${await run()} (${seconds(t)})`);
      } catch (err) {
        failures.push(what);
        if (!interrupted) say(`FAIL ${what}: ${(err as Error).message}`);
      }
    };
    for (const output of ['pdf', 'docx', 'markdown', 'html', 'text', 'json']) {
      await attempt(`markdown → ${output}`, async () => check(output, await convert({ markdown: MARKDOWN, output })));
    }
    // Chromium draws the glyphs of Noto Sans CJK (an OpenType collection) and Noto Color Emoji as Type 3 fonts, which
    // have no name ("[none]"); were those fonts missing, it would draw boxes in Noto Sans instead.
    for (const [what, markdown] of [['CJK', '日本語の文章と한국어'], ['emoji', '📄 🌊']]) {
      await attempt(`${what} → pdf, in its Noto font`, async () => {
        const pdf = Buffer.from(await (await fetch((await convert({ markdown, output: 'pdf' })).file_url!)).arrayBuffer());
        const fonts = await pdfFonts(pdf);
        if (!fonts.includes('[none]')) throw new Error(`drawn without the ${what} font (fonts: ${fonts.join(', ')})`);
        return `fonts ${[...new Set(fonts)].join(', ')}`;
      });
    }
    await attempt('web page → pdf', async () => {
      const result = await convert({ url: `${site.origin}/story`, output: 'pdf' });
      const pdf = Buffer.from(await (await fetch(result.file_url!)).arrayBuffer());
      const images = await pdfImages(pdf);
      if (!images.some((i) => i.width === 240 && i.height === 160)) throw new Error(`the page's image is not in the pdf (${JSON.stringify(images)})`);
      if (!(await pdfText(pdf)).includes('The river rose')) throw new Error('the article text is not in the pdf');
      return `${pdf.length} bytes with the page's image`;
    });
    await attempt('background job → docx with a callback', async () => {
      const accepted = await convert({ markdown: MARKDOWN, output: 'docx', async: true, webhook_url: `${receiver.origin}/done` });
      const [callback] = await receiver.waitFor('/done', 1, 90_000);
      const signature = `sha256=${createHmac('sha256', key).update(callback!.body).digest('hex')}`;
      if (callback!.headers['x-folio-signature'] !== signature) throw new Error('the callback signature does not verify');
      const job = JSON.parse(callback!.body.toString()) as { job_id: string; status: string; result: Converted };
      if (job.job_id !== accepted.job_id || job.status !== 'succeeded') throw new Error(`the callback says ${job.status} for ${job.job_id}`);
      return `signed callback, then ${await check('docx', job.result)}`;
    });
    // Each app's metrics, with one of the series it alone keeps (docs/architecture.md, Metrics); the dispatcher counts
    // an attempt once it is recorded, a moment after the receiver has the callback.
    const ownSeries: Record<App, string> = {
      api: 'folio_http_request_duration_seconds',
      renderer: 'folio_conversion_duration_seconds',
      projector: 'folio_jobs_finished_total',
      dispatcher: 'folio_callback_attempt_duration_seconds',
    };
    for (const app of APPS) {
      await attempt(`${app} metrics`, async () => {
        let text = '';
        const found = await pollUntil(async () => {
          const response = await fetch(metrics[app]);
          text = response.ok ? await response.text() : `HTTP ${response.status}`;
          return new RegExp(`^${ownSeries[app]}(_count)?\\{`, 'm').test(text); // a sample, not only its HELP
        }, 10_000);
        if (!found) throw new Error(`${metrics[app]} has no ${ownSeries[app]} (${text.slice(0, 80)})`);
        return `${metrics[app].replace(/^http:\/\/127\.0\.0\.1/, '')}, ${text.split('\n').filter((l) => l.startsWith('folio_')).length} folio_ samples`;
      });
    }
    site.server.close();
    await receiver.close();
    if (failures.length) throw new Error(`${failures.length} check(s) failed: ${failures.join('; ')}`);
    const tStop = performance.now();
    const unclean = await stopContainers();
    if (unclean.length) throw new Error(`asked to stop (SIGTERM), ${unclean.join(', ')}`);
    say(`ok   every app stopped on SIGTERM with exit code 0 (${seconds(tStop)})`);
    say(`PASS: every output from ${IMAGE} (${seconds(t0)} in all)`);
  } catch (err) {
    if (!interrupted) for (const c of containers) say(`--- end of the ${c.app} log (${c.logFile}):\n${tailFile(c.logFile, 15)}`);
    throw err;
  } finally {
    await shutdown();
  }
}

main().then(
  () => {
    if (!interrupted) process.exit(0); // else the signal's handler ends the process
  },
  (err: Error) => {
    if (interrupted) return; // the signal's handler ends the process
    say(`FAIL: ${err.message}`);
    void shutdown().finally(() => process.exit(1));
  },
);
