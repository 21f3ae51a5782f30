import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DOCUMENT_FILE, documentText } from '../src/openapi/document-file.ts';

// The first half of `npm run generate -w @folio/api`: writes the API's OpenAPI document, built from its routes with no
// service running, where the SDK's generator reads it. The script then runs `npm run generate -w @folio/sdk`.
await writeFile(DOCUMENT_FILE, await documentText());
console.log(`wrote ${fileURLToPath(DOCUMENT_FILE)}`);
