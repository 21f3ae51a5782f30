import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateSchema, SCHEMA_FILE } from './schema-source.ts';

// `npm run generate -w @folio/sdk`: rewrites src/generated/schema.ts from the committed document, openapi.json (no
// service needed). `npm run generate -w @folio/api` rewrites that document from the routes first, then runs this.
await writeFile(SCHEMA_FILE, await generateSchema());
console.log(`wrote ${fileURLToPath(SCHEMA_FILE)}`);
