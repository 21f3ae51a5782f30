/** A loaded image as the caller's fetcher returns it; `null` means it could not be loaded. */
export interface FetchedImage {
  data: Buffer;
  contentType: string;
}

/** What a DOCX is built from: an article that extraction and sanitising have already produced. */
export interface DocxInput {
  title: string;
  /** A line above the title. */
  headerText: string | null;
  /** Written to the document properties (creator) and printed in the byline under the title. */
  author: string | null;
  /** The byline under the title, as the pdf prints it: site · author · date · address. */
  site?: string | null;
  /** ISO 8601 (its calendar date is printed) or any other string (printed as it is). */
  date?: string | null;
  /** Shown under the title as a link when given. */
  sourceUrl: string | null;
  /** Sanitised article HTML (absolute URLs). */
  contentHtml: string;
  pageSize: 'letter' | 'a4';
  /**
   * Loads an image for embedding; returns null when it cannot (the image is then left out or replaced by its alt text).
   * It is only ever called with http(s) addresses; the caller owns the network policy (invariant 7,
   * docs/invariants.md).
   */
  fetchImage: (url: string) => Promise<FetchedImage | null>;
  /** Default 5 MB; larger images are not embedded. */
  maxImageBytes?: number;
}

export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
