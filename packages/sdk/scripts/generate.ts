import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateSchema, SCHEMA_FILE } from './schema-source.ts';

// `npm run generate -w @folio/sdk`: rewrites src/generated/schema.ts from the routes of apps/api (no service needed).
await writeFile(SCHEMA_FILE, await generateSchema());
console.log(`wrote ${fileURLToPath(SCHEMA_FILE)}`);
