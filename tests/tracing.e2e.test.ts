import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages } from './support/pages.ts';
import { Receiver, selfSignedCertificate } from './support/receiver.ts';
import { Stack } from './support/stack.ts';

// One trace per job, from the caller's request through the log to the callback, as an OTLP receiver gets it from
// every app: the apps export with OpenTelemetry's own OTLP/HTTP exporter (its JSON encoding) to a receiver this test
// starts, which keeps every span it is sent.

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP receiver (POST /v1/traces, JSON encoding), keeping what it is sent. */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server!: Server;
  url = '';

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
          res.writeHead(415).end();
          return;
        }
        receiver.take(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  private take(request: { resourceSpans?: any[] }): void {
    const value = (v: any) => v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : v?.boolValue ?? v?.doubleValue);
    const attributes = (list: any[] = []) => Object.fromEntries(list.map((a) => [a.key, value(a.value)]));
    for (const resource of request.resourceSpans ?? []) {
      const service = String(attributes(resource.resource?.attributes)['service.name']);
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, attributes: attributes(span.attributes) });
        }
      }
    }
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

let stack: Stack;
let otlp: OtlpReceiver;
let receiver: Receiver;
let site: { server: Server; origin: string };
let key: string;

const PARAGRAPHS = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i + 1} of the trace report, long enough to be read as the article's own words and kept.</p>`).join('');

beforeAll(async () => {
  const tls = selfSignedCertificate();
  otlp = await OtlpReceiver.start();
  site = await servePages({ '/story': { type: 'text/html', body: `<html><head><title>The trace report</title></head><body><article><h1>The trace report</h1>${PARAGRAPHS}</article></body></html>` } });
  stack = await Stack.start({
    env: {
      NODE_EXTRA_CA_CERTS: tls.caFile,
      FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Spans go out a fifth of a second after they end, not five seconds.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
  key = await stack.createKey('paid');
  receiver = await Receiver.start(tls);
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  await otlp?.close();
  await new Promise((r) => site?.server.close(r));
});

/** The spans of a trace, once `names` have all arrived. */
async function traceOf(traceId: string, names: string[]): Promise<ReceivedSpan[]> {
  return stack.until(
    async () => {
      const spans = otlp.spans.filter((s) => s.traceId === traceId);
      return names.every((n) => spans.some((s) => s.name === n)) ? spans : undefined;
    },
    30_000,
    `spans ${names.join(', ')} of trace ${traceId}`,
  );
}

describe('traces', () => {
  it('follow a job from the caller’s traceparent through every app into the callback’s traceparent', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const hook = receiver.answer('/traced', { status: 200 });
    const accepted = await stack.request('POST', '/v2/convert', {
      key,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
      json: { url: `${site.origin}/story`, output: 'pdf', async: true, webhook_url: `${receiver.origin}${hook}` },
    });
    expect(accepted.status, accepted.text).toBe(202);
    const jobId: string = accepted.body.job_id;
    const [callback] = await receiver.waitFor(hook, 1);

    const spans = await traceOf(traceId, ['POST /v2/convert', 'render pdf', 'fetch page', 'extract', 'print', 'store file', 'project JobQueued', 'project JobSucceeded', 'deliver callback']);
    const one = (name: string) => {
      const found = spans.filter((s) => s.name === name);
      expect(found, name).toHaveLength(1);
      return found[0]!;
    };
    const request = one('POST /v2/convert');
    const render = one('render pdf');
    const succeeded = one('project JobSucceeded');
    const delivery = one('deliver callback');

    // Each step under the one that handed it on.
    expect(request).toMatchObject({ service: 'folio-api', parentSpanId: callerSpan, attributes: { 'folio.job_id': jobId, 'http.response.status_code': 202 } });
    expect(render).toMatchObject({ service: 'folio-renderer', parentSpanId: request.spanId, attributes: { 'folio.job_id': jobId, 'folio.output': 'pdf', 'folio.input': 'url' } });
    for (const step of ['fetch page', 'extract', 'print', 'store file']) expect(one(step), step).toMatchObject({ service: 'folio-renderer', parentSpanId: render.spanId });
    expect(one('project JobQueued')).toMatchObject({ service: 'folio-projector', parentSpanId: request.spanId });
    expect(succeeded).toMatchObject({ service: 'folio-projector', parentSpanId: render.spanId, attributes: { 'folio.job_id': jobId } });
    expect(delivery).toMatchObject({ service: 'folio-dispatcher', parentSpanId: succeeded.spanId, attributes: { 'folio.job_id': jobId, 'folio.delivery_outcome': 'delivered' } });

    // The receiver can continue it: the callback's traceparent is the delivery's span.
    expect(callback!.headers.traceparent).toBe(`00-${traceId}-${delivery.spanId}-01`);
  });

  it('starts a trace of its own for a caller that sends none, a sync call included', async () => {
    const answered = await stack.request('POST', '/v2/convert', { key, json: { markdown: '# Untraced caller\n\nSome words.', output: 'html' } });
    expect(answered.status, answered.text).toBe(200);
    const jobId = answered.body.job_id as string | undefined;
    const request = await stack.until(
      async () => otlp.spans.find((s) => s.name === 'POST /v2/convert' && s.parentSpanId === '' && (jobId === undefined || s.attributes['folio.job_id'] === jobId) && s.attributes['http.response.status_code'] === 200),
      30_000,
      'the sync request’s span',
    );
    const spans = await traceOf(request.traceId, ['render html', 'convert', 'project JobSucceeded']);
    expect(spans.find((s) => s.name === 'render html')).toMatchObject({ parentSpanId: request.spanId });
  });
});
