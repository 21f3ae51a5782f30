import type { ConversionOptions, InputKind, Output } from '@folio/events';

/**
 * A conversion as the API admits, queues and runs it, whichever endpoint it came by: /v2/convert's parameters
 * (`routes/convert-params.ts`) and the legacy endpoints' (`routes/legacy-params.ts`) are both interpreted into this,
 * and everything under `jobs/` works on it.
 */
export interface ConvertRequest {
  input: { kind: InputKind; text: string };
  output: Output;
  options: ConversionOptions;
  async: boolean;
  webhookUrl: string | null;
}

/** The interface's limits on a request (interface: Limits), each written once. */
export const LIMITS = {
  markdownChars: 1_000_000,
  /** html in all, data: images included, in UTF-16 code units as JavaScript counts (legacy endpoints too). */
  htmlChars: 50_000_000,
  /** html's markup without its data: images. */
  htmlMarkupBytes: 2 * 1024 * 1024,
  titleChars: 500,
  headerTextChars: 500,
  webhookUrlChars: 2048,
};

/** The html limit as the error messages write it: "50,000,000 characters". */
export const HTML_LIMIT_TEXT = `${LIMITS.htmlChars.toLocaleString('en-US')} characters`;
