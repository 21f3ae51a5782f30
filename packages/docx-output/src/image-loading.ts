import { decodeDataUrl } from './data-url.ts';
import type { DocxInput } from './docx-input.ts';
import { readImageFile, type ImageFile } from './image-file.ts';

/** An image ready to embed: bytes Word can show, with their size in pixels. */
export interface EmbeddableImage extends ImageFile {
  data: Uint8Array;
}

/** Why an image is left out of the document. None of these fails the build. */
export type ImageRefusal = 'not-fetchable' | 'unreachable' | 'too-large' | 'unsupported-format';

export type ImageOutcome = { ok: true; image: EmbeddableImage } | { ok: false; reason: ImageRefusal };

export interface ImageLoadOptions {
  fetchImage: DocxInput['fetchImage'];
  maxImageBytes: number;
  /** How many fetches run at once: enough to hide latency, few enough to be polite to one origin. */
  concurrency?: number;
  /**
   * How long all fetches together may take. A slow or hanging image must not hold the document past the
   * service's 27 s answer ceiling; what has not arrived by then is left out.
   */
  budgetMs?: number;
}

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_BUDGET_MS = 10_000;

/** Loads every distinct image source once: `data:` URLs are decoded here, http(s) addresses go to the fetcher. */
export async function loadImages(sources: Iterable<string>, options: ImageLoadOptions): Promise<Map<string, ImageOutcome>> {
  return loadEach(sources, options, (source, deadline) => loadImage(source, options, deadline), { ok: false, reason: 'unreachable' });
}

/**
 * Loads each distinct source once, `concurrency` at a time, within `budgetMs` for all of them together: `load` races
 * the deadline it is given, and a source not started by then gets `late` without being tried.
 */
export async function loadEach<T>(
  sources: Iterable<string>,
  options: Pick<ImageLoadOptions, 'concurrency' | 'budgetMs'>,
  load: (source: string, deadline: Promise<'late'>) => Promise<T>,
  late: T,
): Promise<Map<string, T>> {
  const pending = [...new Set(sources)].reverse();
  const outcomes = new Map<string, T>();
  if (pending.length === 0) return outcomes;

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), options.budgetMs ?? DEFAULT_BUDGET_MS);
  });
  let over = false;
  void deadline.then(() => (over = true));

  const worker = async (): Promise<void> => {
    for (let source = pending.pop(); source !== undefined; source = pending.pop()) {
      outcomes.set(source, over ? late : await load(source, deadline));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY) }, worker));
  } finally {
    clearTimeout(timer);
  }
  return outcomes;
}

async function loadImage(source: string, options: ImageLoadOptions, deadline: Promise<'late'>): Promise<ImageOutcome> {
  if (/^\s*data:/i.test(source)) {
    const decoded = decodeDataUrl(source, options.maxImageBytes);
    if (!decoded.ok) return { ok: false, reason: decoded.reason === 'too-large' ? 'too-large' : 'unsupported-format' };
    return accept(decoded.data, options);
  }
  if (!isHttpUrl(source)) return { ok: false, reason: 'not-fetchable' };
  const fetched = await fetchBefore(source, options, deadline);
  return fetched === null ? { ok: false, reason: 'unreachable' } : accept(fetched, options);
}

function accept(data: Uint8Array, options: ImageLoadOptions): ImageOutcome {
  if (data.byteLength > options.maxImageBytes) return { ok: false, reason: 'too-large' };
  const file = readImageFile(data);
  return file === null ? { ok: false, reason: 'unsupported-format' } : { ok: true, image: { ...file, data } };
}

async function fetchBefore(url: string, options: ImageLoadOptions, deadline: Promise<'late'>): Promise<Uint8Array | null> {
  try {
    const result = await Promise.race([options.fetchImage(url), deadline]);
    return result !== 'late' && result && result.data instanceof Uint8Array ? result.data : null;
  } catch {
    return null; // a fetcher's failure is a missing image, not a failed document
  }
}

function isHttpUrl(source: string): boolean {
  try {
    const { protocol } = new URL(source);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
