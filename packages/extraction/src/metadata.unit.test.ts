import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { cleanByline, isoDate, normaliseLanguage, readMetadata } from './metadata.ts';

describe('isoDate', () => {
  it('keeps ISO 8601 and normalises its common variants', () => {
    expect(isoDate('2019-11-18T20:11:06.000Z')).toBe('2019-11-18T20:11:06.000Z');
    expect(isoDate('2019-11-18 20:11')).toBe('2019-11-18T20:11:00');
    expect(isoDate('2019-11-18T20:11:06+0100')).toBe('2019-11-18T20:11:06+01:00');
    expect(isoDate('2019-11-18')).toBe('2019-11-18');
    expect(isoDate('20191118')).toBe('2019-11-18');
  });

  it('reads dates written for people, as UTC when they carry a time', () => {
    expect(isoDate('Nov 18, 2019 10:00 GMT')).toBe('2019-11-18T10:00:00.000Z');
    expect(isoDate('18 November 2019')).toBe('2019-11-18');
  });

  it('refuses placeholders and non-dates', () => {
    expect(isoDate('0001-01-01T00:00:00Z')).toBeNull();
    expect(isoDate('2019-13-01')).toBeNull();
    expect(isoDate('yesterday')).toBeNull();
    expect(isoDate('12345')).toBeNull();
  });
});

describe('cleanByline', () => {
  it('drops the "by" and a trailing date', () => {
    expect(cleanByline('By Jane Doe')).toBe('Jane Doe');
    expect(cleanByline('  by   Jane  Doe - 11/18/19 11:04 PM EST')).toBe('Jane Doe');
    expect(cleanByline('FEDERICA LUSIARDI - 2019-04-10')).toBe('FEDERICA LUSIARDI');
    expect(cleanByline('Jane Doe, Staff Writer')).toBe('Jane Doe, Staff Writer');
  });

  it('leaves a value far longer than a byline as it is, read once', () => {
    // Separators and digits without a date: the date's pattern read the rest from each one (a megabyte, minutes).
    const long = `O${' -1'.repeat(400_000)}|`;
    expect(cleanByline(long)).toBe(long);
    expect(cleanByline(`By ${'J'.repeat(2000)} - 2019-04-10`)).toBe(`${'J'.repeat(2000)} - 2019-04-10`);
  });
});

describe('normaliseLanguage', () => {
  it('turns lang values and locales into BCP 47 tags and ignores junk', () => {
    expect(normaliseLanguage('en_US')).toBe('en-US');
    expect(normaliseLanguage('PT-br')).toBe('pt-BR');
    expect(normaliseLanguage('de, en')).toBe('de');
    expect(normaliseLanguage('{{lang}}')).toBeNull();
    expect(normaliseLanguage('')).toBeNull();
  });
});

describe('readMetadata: the site\'s name', () => {
  const read = (head: string, body = '') =>
    readMetadata(new JSDOM(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, { url: 'http://127.0.0.1:8080/story' }).window.document);

  it('is the name the title sets beside the page\'s heading first, then the stated name, then the canonical host', () => {
    const title = '<title>Marathon in One Year for Beginners » Take The Magic Step®</title>';
    const heading = '<header><h1>TMS</h1></header><article><h1>Marathon in One Year for Beginners</h1></article>';
    expect(read(`${title}<meta property="og:site_name" content="TMS">`, heading).siteName).toBe('Take The Magic Step®');
    expect(read(`${title}<meta property="og:site_name" content="TMS">`).siteName).toBe('TMS');
    expect(read(`${title}<link rel="canonical" href="https://takethemagicstep.com/marathon">`).siteName).toBe('takethemagicstep.com');
    expect(read(title).siteName).toBeNull();
  });
});
