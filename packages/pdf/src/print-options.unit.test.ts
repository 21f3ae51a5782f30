import { describe, expect, it } from 'vitest';
import { chromiumArgs } from './chromium.ts';
import { pageSizeOf, printOptions, printsTagged, TAGGED_BLOCK_ELEMENTS_MAX, TAGGED_ELEMENTS_MAX } from './print-options.ts';

describe('print options', () => {
  it('maps the page size, any case, and refuses others', () => {
    expect(pageSizeOf('A4')).toBe('a4');
    expect(pageSizeOf('Letter')).toBe('letter');
    expect(() => pageSizeOf('legal')).toThrow(RangeError);
    expect(printOptions('a4', 1000).format).toBe('A4');
    expect(printOptions('letter', 1000).format).toBe('Letter');
  });

  it('leaves page numbers to the page’s own margin boxes, with room for them, on the service’s page size', () => {
    const options = printOptions('letter', 1234);
    expect(options.displayHeaderFooter).toBe(false); // Chromium's templates would also print the date and title
    expect(options.preferCSSPageSize).toBe(false);
    expect(options.timeout).toBe(1234);
    expect(parseFloat(String(options.margin?.bottom))).toBeGreaterThan(10); // room for the footer
  });

  it('prints tagged unless told not to', () => {
    expect(printOptions('letter', 1000).tagged).toBe(true);
    expect(printOptions('letter', 1000, false).tagged).toBe(false);
  });

  it('prints a document tagged up to TAGGED_ELEMENTS_MAX elements, counting start tags only', () => {
    const page = (n: number) => `<!doctype html><html><body>${'<p>a &lt;b&gt; x < y</p>\n<!-- note -->'.repeat(n)}</body></html>`;
    // The page's own html and body are two of its elements; text, escaped or a lone `<`, end tags and comments are none.
    expect(printsTagged(page(TAGGED_ELEMENTS_MAX - 2))).toBe(true);
    expect(printsTagged(page(TAGGED_ELEMENTS_MAX - 1))).toBe(false);
    expect(printsTagged('<P>upper case</P>'.repeat(TAGGED_ELEMENTS_MAX + 1))).toBe(false);
    expect(printsTagged('')).toBe(true);
    expect(printsTagged('ends with <')).toBe(true);
  });

  it('prints a document tagged only while no block holds more than TAGGED_BLOCK_ELEMENTS_MAX elements', () => {
    const runs = (n: number) => '<b>bold</b> <a href="#x">link</a> '.repeat(n / 2);
    expect(printsTagged(`<html><body><article><p>${runs(TAGGED_BLOCK_ELEMENTS_MAX)}</p></article></body></html>`)).toBe(true);
    expect(printsTagged(`<html><body><article><p>${runs(TAGGED_BLOCK_ELEMENTS_MAX + 2)}</p></article></body></html>`)).toBe(false);
    // Nested inline elements are runs of the same block; a block's start or end tag, any case, ends one.
    expect(printsTagged(`<p>${'<a><b>x</b></a>'.repeat(TAGGED_BLOCK_ELEMENTS_MAX / 2 + 1)}</p>`)).toBe(false);
    expect(printsTagged(`<p>${runs(TAGGED_BLOCK_ELEMENTS_MAX)}</P>${runs(TAGGED_BLOCK_ELEMENTS_MAX)}<LI>${runs(TAGGED_BLOCK_ELEMENTS_MAX)}`)).toBe(true);
    // The same runs spread over blocks: tagged.
    expect(printsTagged(`<ul>${`<li>${runs(100)}</li>`.repeat(4 * TAGGED_BLOCK_ELEMENTS_MAX / 100)}</ul>`)).toBe(true);
  });
});

describe('Chromium flags', () => {
  it('send every connection, loopback included, through the egress proxy, and resolve no name inside Chromium', () => {
    const args = chromiumArgs(4321);
    expect(args).toContain('--proxy-server=http://127.0.0.1:4321');
    expect(args).toContain('--proxy-bypass-list=<-loopback>');
    expect(args).toContain('--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1');
    expect(args).toEqual(expect.arrayContaining(['--disable-gpu', '--disable-quic', '--disable-component-update', '--disable-background-networking']));
    expect(args).toEqual(expect.arrayContaining(['--enable-begin-frame-control', '--in-process-gpu'])); // no frames, no GPU process
  });
});
