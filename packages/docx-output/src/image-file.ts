/**
 * Recognises the raster formats Word shows everywhere (PNG, JPEG, GIF, BMP) by their bytes, never by the
 * Content-Type a server sent, and reads their size in pixels. Anything else (SVG, WebP, AVIF, HTML error pages,
 * truncated files) is not embeddable: Word shows nothing or a broken picture for it, and an SVG could make the
 * reader's word processor fetch what it references.
 */
export type EmbeddableFormat = 'png' | 'jpg' | 'gif' | 'bmp';

export interface ImageFile {
  format: EmbeddableFormat;
  width: number;
  height: number;
}

/** Larger than any real image; a header claiming more is corrupt. */
const MAX_SIDE = 65_535;

export function readImageFile(data: Uint8Array): ImageFile | null {
  const size = sniff(data);
  if (size === null) return null;
  const { width, height } = size;
  if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE)) return null;
  return size;
}

function sniff(data: Uint8Array): ImageFile | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const startsWith = (...bytes: number[]) => bytes.every((byte, i) => data[i] === byte);
  if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) {
    // The first chunk is IHDR: width and height, big-endian.
    if (data.length < 24 || ascii(data, 12, 4) !== 'IHDR') return null;
    return { format: 'png', width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (startsWith(0xff, 0xd8, 0xff)) return readJpeg(data, view);
  if (data.length >= 10 && (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a')) {
    return { format: 'gif', width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (startsWith(0x42, 0x4d) && data.length >= 26) {
    // BITMAPCOREHEADER (12 bytes) has 16-bit sides; the later headers 32-bit ones, a negative height meaning top-down.
    const headerSize = view.getUint32(14, true);
    if (headerSize === 12) return { format: 'bmp', width: view.getUint16(18, true), height: view.getUint16(20, true) };
    return { format: 'bmp', width: view.getInt32(18, true), height: Math.abs(view.getInt32(22, true)) };
  }
  return null;
}

/** A JPEG's size is in its frame header (SOF0–SOF15 but DHT, JPG and DAC), after segments of other kinds. */
function readJpeg(data: Uint8Array, view: DataView): ImageFile | null {
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > data.length) return null;
      return { format: 'jpg', width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

function ascii(data: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...data.subarray(at, at + length));
}
