import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateSchema, SCHEMA_FILE } from '../scripts/schema-source.ts';

describe('the generated schema', () => {
  it('is what the committed OpenAPI document (openapi.json) generates (run `npm run generate -w @folio/api` when this fails)', async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(await generateSchema());
  });
});
