import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

export { context, SpanKind, trace, type Context, type Span };

/** W3C trace context as it travels in headers: `traceparent`, and `tracestate` when there is one. */
export type TraceHeaders = Record<string, string>;

let on = false;

/**
 * Starts OpenTelemetry's Node SDK for this process when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`, or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): traces only, exported as the standard OTEL_* variables say (protocol,
 * headers, sampler). Otherwise nothing is loaded and every helper below is a no-op: no SDK, no headers written, no
 * span made. Folio's own metrics are Prometheus' and its logs pino's, so the SDK's metric and log exporters stay off
 * unless asked for.
 */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<{ stop(): Promise<void> } | null> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()) return null;
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: env.OTEL_SERVICE_NAME ?? `folio-${service}`, instrumentations: [] });
  sdk.start();
  on = true;
  return {
    stop: async () => {
      on = false;
      await sdk.shutdown();
    },
  };
}

/** Whether this process exports traces. */
export const tracing = (): boolean => on;

const tracer = () => trace.getTracer('folio');

/** The W3C headers of a context (the active one by default); empty when tracing is off or there is no span. */
export function traceHeaders(from: Context = context.active()): TraceHeaders {
  if (!on) return {};
  const carrier: TraceHeaders = {};
  propagation.inject(from, carrier);
  return carrier;
}

/** The context W3C headers carry (a caller's `traceparent`, an event's Kafka headers); the root one without them. */
export function contextOf(headers: Record<string, string | string[] | undefined> | undefined): Context {
  return on && headers ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
}

/** Starts a span under `parent`; returns it with the context that has it active. Never throws. */
export function startSpan(name: string, options: { parent?: Context; kind?: SpanKind; attributes?: Attributes; startTime?: number } = {}): { span: Span; context: Context } {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, startTime: options.startTime }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends a span, marked failed when `error` is given. */
export function endSpan(span: Span, error?: unknown, endTime?: number): void {
  if (error !== undefined && error !== null) {
    span.recordException(error instanceof Error ? error : new Error(String(error)));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end(endTime);
}

/**
 * Runs `work` in a span of its own, under the active context (a child step) unless `options.parent` names another; the
 * span ends when the work does, marked failed if it throws. Without tracing, the work runs as it is.
 */
export async function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>, options: { parent?: Context; kind?: SpanKind } = {}): Promise<T> {
  if (!on) return work();
  const { span, context: within } = startSpan(name, { ...options, attributes });
  try {
    const result = await context.with(within, work);
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** A span's times given in milliseconds since the epoch (a step measured elsewhere, e.g. in a worker thread). */
export function recordSpan(name: string, parent: Context, fromMs: number, toMs: number, attributes: Attributes = {}): void {
  if (!on) return;
  const { span } = startSpan(name, { parent, attributes, startTime: fromMs });
  span.end(toMs);
}
