import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

/** Image files for tests, built byte by byte so each test says exactly what it embeds. */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG. `noise` fills it with pseudo-random pixels, which do not compress: a way to make a file of a
 * realistic (or deliberately excessive) size.
 */
export function png(width: number, height: number, options: { noise?: boolean } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const row = 1 + width * 3;
  const pixels = Buffer.alloc(row * height);
  let seed = 0x2545f491;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * row + 1 + x * 3;
      if (options.noise) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        pixels.writeUIntBE((seed >>> 0) & 0xffffff, at, 3);
      } else {
        pixels[at] = (x * 255) / Math.max(1, width - 1);
        pixels[at + 1] = (y * 255) / Math.max(1, height - 1);
        pixels[at + 2] = 160;
      }
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 24-bit bottom-up BMP with a BITMAPINFOHEADER. */
export function bmp(width: number, height: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + row * height, 0x80);
  file.write('BM', 0, 'ascii');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(0, 30);
  file.writeUInt32LE(row * height, 34);
  return file;
}

/** The classic 1×1 transparent GIF. */
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
/** A baseline JPEG of 160×90 pixels, encoded by Chromium. */
export const JPEG_160X90 = fixture('photo-160x90.jpg');
/** A WebP of 16×16 pixels, encoded by Chromium: a format Word cannot show. */
export const WEBP_16X16 = fixture('icon-16x16.webp');
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><image href="http://127.0.0.2/canary.png"/></svg>');

export function dataUrl(contentType: string, data: Buffer): string {
  return `data:${contentType};base64,${data.toString('base64')}`;
}
