import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, documentText } from './document-file.ts';

describe('the committed OpenAPI document (packages/sdk/openapi.json, the SDK’s input)', () => {
  it('is what the routes document now (run `npm run generate -w @folio/api` when this fails)', async () => {
    expect(await readFile(DOCUMENT_FILE, 'utf8')).toBe(await documentText());
  });
});
