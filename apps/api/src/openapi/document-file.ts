import { interfaceDocument } from './standalone.ts';

/**
 * The committed copy of the API's OpenAPI document: the input of the SDK's generator. The API writes it (it owns the
 * document; `npm run generate -w @folio/api`) and the SDK only reads it, so no package imports the app's code.
 */
export const DOCUMENT_FILE = new URL('../../../../packages/sdk/openapi.json', import.meta.url);

/** The text of DOCUMENT_FILE for the routes as they are in this checkout: `GET /v2/openapi.json`'s document, indented. */
export async function documentText(): Promise<string> {
  return `${JSON.stringify(await interfaceDocument(), null, 2)}\n`;
}
