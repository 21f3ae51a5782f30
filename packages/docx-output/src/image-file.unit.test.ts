import { describe, expect, it } from 'vitest';
import { readImageFile } from './image-file.ts';
import { GIF_1X1, JPEG_160X90, SVG, WEBP_16X16, bmp, png } from './test-support/images.ts';

describe('readImageFile', () => {
  it('reads format and size from PNG, JPEG, GIF and BMP bytes', () => {
    expect(readImageFile(png(640, 480))).toEqual({ format: 'png', width: 640, height: 480 });
    expect(readImageFile(JPEG_160X90)).toEqual({ format: 'jpg', width: 160, height: 90 });
    expect(readImageFile(GIF_1X1)).toEqual({ format: 'gif', width: 1, height: 1 });
    expect(readImageFile(bmp(33, 17))).toEqual({ format: 'bmp', width: 33, height: 17 });
  });

  it('reads a top-down BMP (negative height)', () => {
    const file = bmp(8, 4);
    file.writeInt32LE(-4, 22);
    expect(readImageFile(file)).toEqual({ format: 'bmp', width: 8, height: 4 });
  });

  it('finds the JPEG frame header after other segments and fill bytes', () => {
    // SOI, an APP1 segment of 6 bytes, two fill bytes, then SOF2 (progressive) for 300×200.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x06, 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xc2, 0x00, 0x11, 0x08, 0x00, 0xc8, 0x01, 0x2c, 0x03]);
    expect(readImageFile(jpeg)).toEqual({ format: 'jpg', width: 300, height: 200 });
  });

  it('refuses formats Word cannot show, and bytes that are not an image', () => {
    expect(readImageFile(WEBP_16X16)).toBeNull();
    expect(readImageFile(SVG)).toBeNull();
    expect(readImageFile(Buffer.from('<!doctype html><title>404</title>'))).toBeNull();
    expect(readImageFile(Buffer.alloc(0))).toBeNull();
  });

  it('refuses truncated files and impossible sizes', () => {
    expect(readImageFile(png(10, 10).subarray(0, 20))).toBeNull();
    expect(readImageFile(JPEG_160X90.subarray(0, 100))).toBeNull();
    expect(readImageFile(png(0, 10))).toBeNull();
    const huge = png(1, 1);
    huge.writeUInt32BE(4_000_000, 16);
    expect(readImageFile(huge)).toBeNull();
  });
});
