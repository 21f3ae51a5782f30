import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaOf } from './schemas.ts';
import { CURRENT_VERSION, type JobEventType } from './types.ts';

const firstVersion = (type: JobEventType) =>
  JSON.parse(readFileSync(new URL(`../fixtures/first-versions/${type}.v1.avsc`, import.meta.url), 'utf8')) as unknown;

describe('released schema versions', () => {
  // The fixtures are the v1 schemas as first released (8c75c53; WebhookDeliveryAttempted 68bdf69; WebhookRedeliveryRequested 2aa9078). A released
  // version never changes: a change of shape is a new version and an upcaster (docs/schema-evolution.md).
  it.each(Object.keys(CURRENT_VERSION) as JobEventType[])('%s v1 is still the schema first released', (type) => {
    expect(schemaOf(type, 1)).toEqual(firstVersion(type));
  });
});
