import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { EventCodec, jobProcessing, topicNames } from '@folio/events';
import { createDatabase, freePort, startRegistry, type RegistryService } from '../infra/services/index.ts';

const v1Fixture = JSON.parse(readFileSync(new URL('../packages/events/fixtures/job-queued.v1.json', import.meta.url), 'utf8'));

describe('events in the schema registry', () => {
  let registry: RegistryService;
  let options: Parameters<typeof startRegistry>[0];
  const topics = topicNames('registry-test.');

  beforeAll(async () => {
    // A registry of this test's own (on the shared Postgres), so restarting it disturbs no other test.
    options = {
      port: await freePort(),
      databaseUrl: await createDatabase(inject('infra').DATABASE_URL!, `registry_${Date.now().toString(36)}`),
      dataDir: mkdtempSync(join(tmpdir(), 'folio-registry-')),
      // Inside the hook's 180 s, so a registry that never answers fails with its last probe and log tail.
      readyTimeoutMs: 120_000,
    };
    registry = await startRegistry(options);
  });
  afterAll(() => registry?.stop());

  it('still decodes events written before a registry restart, old versions upcast to the current shape', async () => {
    const writer = new EventCodec(registry.url, topics);
    const current = jobProcessing('018f2a3b-4c5d-7e6f-8a9b-0c1d2e3f4a5b', 2, 'renderer-a');
    const currentBytes = await writer.encode(current);
    const oldBytes = await writer.encodeAs(topics.queuedSync, 'JobQueued', 1, v1Fixture);
    expect(currentBytes[0]).toBe(0); // Confluent wire format: magic byte, then the schema id

    await registry.stop();
    registry = await startRegistry(options);

    const reader = new EventCodec(registry.url, topics); // a new process: nothing cached
    expect(await reader.decode(currentBytes)).toEqual(current);
    const upcast = await reader.decode(oldBytes);
    expect(upcast).toMatchObject({ type: 'JobQueued', version: 3, rerun_of: null, job_id: v1Fixture.job_id, lane: 'sync' });
    expect(upcast).toMatchObject({ input: { kind: 'markdown', text: v1Fixture.markdown, ref: null } });
  });

  it('refuses an event that does not match its schema', async () => {
    const codec = new EventCodec(registry.url, topics);
    await expect(codec.encode({ ...jobProcessing('x', 1, 'w'), attempt: 'first' } as never)).rejects.toThrow();
  });

  it('registers a new event subject from several processes at once, each getting the same id under FULL_TRANSITIVE', async () => {
    // Each codec is a process of its own (nothing cached); all start writing a topic nobody has written before, as the
    // renderers of a new deployment do. The registry answers the losers of the race to set the rule with 409.
    const fresh = topicNames(`registry-race-${Date.now().toString(36)}.`);
    const codecs = Array.from({ length: 8 }, () => new EventCodec(registry.url, fresh));
    const ids = await Promise.all(codecs.map((codec) => codec.schemaId(fresh.lifecycle, 'JobSucceeded', 1)));
    expect(new Set(ids).size).toBe(1);
    const subject = EventCodec.subject(fresh.lifecycle, 'JobSucceeded', 1);
    const config = (await (await fetch(`${registry.url}/config/${encodeURIComponent(subject)}`)).json()) as { compatibilityLevel?: string };
    expect(config.compatibilityLevel).toBe('FULL_TRANSITIVE');
  });

  it('keeps the BACKWARD compatibility rule in force', async () => {
    const config = (await (await fetch(`${registry.url}/config`)).json()) as { compatibilityLevel?: string };
    expect(config.compatibilityLevel).toBe('BACKWARD');
  });
});
