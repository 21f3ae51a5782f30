import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { contextOf, inSpan, startTracing, traceHeaders, tracing } from './index.ts';

describe('tracing when no OTLP endpoint is set', () => {
  it('starts nothing and costs nothing: no headers written, no context read, the work run as it is', async () => {
    const env: NodeJS.ProcessEnv = {};
    expect(await startTracing('api', env)).toBeNull();
    expect(env).toEqual({});
    expect(tracing()).toBe(false);
    expect(traceHeaders()).toEqual({});
    expect(contextOf({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).toBe(ROOT_CONTEXT);
    expect(await inSpan('step', {}, async () => trace.getActiveSpan())).toBeUndefined();
  });
});
