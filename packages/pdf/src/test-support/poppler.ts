import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a poppler tool (pdftotext, pdfinfo, pdfimages from poppler-utils) on a PDF held in memory. */
async function poppler(tool: string, pdf: Buffer, args: string[] = [], output = '-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-pdf-test-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await fs.writeFile(file, pdf);
    const { stdout } = await run(tool, [...args, file, ...(output ? [output] : [])], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export const pdfText = (pdf: Buffer, args: string[] = []): Promise<string> => poppler('pdftotext', pdf, ['-enc', 'UTF-8', ...args]);

/** pdfinfo's fields, e.g. `Pages` and `Page size`. */
export async function pdfInfo(pdf: Buffer): Promise<Record<string, string>> {
  const out = await poppler('pdfinfo', pdf, [], '');
  return Object.fromEntries(out.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
}

/** The images the PDF embeds, as width × height (from `pdfimages -list`). */
export async function pdfImages(pdf: Buffer): Promise<{ width: number; height: number }[]> {
  const out = await poppler('pdfimages', pdf, ['-list'], '');
  return out
    .split('\n')
    .slice(2)
    .map((l) => l.trim().split(/\s+/))
    .filter((cols) => cols.length > 4 && /^\d+$/.test(cols[0]!))
    .map((cols) => ({ width: Number(cols[3]), height: Number(cols[4]) }));
}

/** Words with their boxes (`pdftotext -bbox`), to check where text sits on the page. */
export async function pdfWords(pdf: Buffer): Promise<{ word: string; xMin: number; xMax: number; page: number }[]> {
  const html = await poppler('pdftotext', pdf, ['-bbox', '-enc', 'UTF-8']);
  const words: { word: string; xMin: number; xMax: number; page: number }[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page += 1;
    const m = /<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*)<\/word>/.exec(line);
    if (m) words.push({ word: m[3]!, xMin: Number(m[1]), xMax: Number(m[2]), page });
  }
  return words;
}

/** The font names the PDF embeds (from `pdffonts`), subset prefixes removed. */
export async function pdfFonts(pdf: Buffer): Promise<string[]> {
  const out = await poppler('pdffonts', pdf, [], '');
  return out.split('\n').slice(2).map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, '')).filter(Boolean);
}
