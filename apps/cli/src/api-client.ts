import { Folio } from '@folio/sdk';
import { MissingSettingError } from './usage.ts';

/** The development stack's address (FOLIO_PUBLIC_URL's default), so `folio convert` works beside `npm start`. */
export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** The SDK client the API commands use: FOLIO_URL (default the local stack) and FOLIO_API_KEY. */
export function folioFromEnv(env: NodeJS.ProcessEnv = process.env): Folio {
  const apiKey = env.FOLIO_API_KEY?.trim();
  if (!apiKey) throw new MissingSettingError('set FOLIO_API_KEY to your API key (make one with `folio keys create --plan free`)');
  return new Folio({ apiKey, baseUrl: env.FOLIO_URL?.trim() || DEFAULT_URL });
}
