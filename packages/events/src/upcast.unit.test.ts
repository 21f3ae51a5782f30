import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { upcast, UnknownEventError } from './upcast.ts';
import { CURRENT_VERSION, DEFAULT_OPTIONS } from './types.ts';
import { SCHEMAS } from './schemas.ts';

/** A JobQueued as the first release wrote it (fixtures/job-queued.v1.json), read by today's code. */
const v1 = JSON.parse(readFileSync(new URL('../fixtures/job-queued.v1.json', import.meta.url), 'utf8'));

describe('upcasting', () => {
  it('turns a v1 JobQueued into the current shape', () => {
    const event = upcast(v1);
    expect(event).toEqual({
      type: 'JobQueued',
      version: 3,
      event_id: v1.event_id,
      job_id: v1.job_id,
      occurred_at: v1.occurred_at,
      request_id: v1.event_id,
      key_id: v1.key_id,
      lane: 'sync',
      output: 'html',
      input: { kind: 'markdown', text: '# Written by release 1', ref: null },
      options: { ...DEFAULT_OPTIONS, title: 'Old' },
      webhook_url: null,
      expires_at: '2025-01-03T10:00:00.000Z',
      rerun_of: null,
    });
  });

  it('gives a v2 JobQueued (before reruns) rerun_of null and leaves the rest as written', () => {
    const v3 = upcast(v1) as unknown as Record<string, unknown>;
    const { rerun_of: _, ...v2 }: Record<string, unknown> = { ...v3, version: 2 };
    expect(upcast(v2)).toEqual(v3);
  });

  it('passes current events through untouched', () => {
    const current = upcast(upcast(v1) as unknown as Record<string, unknown>);
    expect(current.version).toBe(CURRENT_VERSION.JobQueued);
  });

  it('refuses events from the future and unknown types', () => {
    expect(() => upcast({ ...v1, version: 9 })).toThrow(UnknownEventError);
    expect(() => upcast({ type: 'JobExploded', version: 1 })).toThrow(UnknownEventError);
  });

  it('has a schema for every version it can upcast from and to', () => {
    for (const [type, version] of Object.entries(CURRENT_VERSION)) {
      for (let v = 1; v <= version; v++) expect(SCHEMAS[type as keyof typeof SCHEMAS][v], `${type} v${v}`).toBeDefined();
    }
  });
});
