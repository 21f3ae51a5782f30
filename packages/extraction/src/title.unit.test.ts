import { describe, expect, it } from 'vitest';
import { siteNameBesideHeadline, withoutSiteName } from './title.ts';

describe('withoutSiteName: the headline without the site name the page title carries', () => {
  it('drops a last or first segment that is the stated site name or the host', () => {
    expect(withoutSiteName('Sea wall plan goes to a vote | The Harbour Gazette', ['The Harbour Gazette', 'news.example.com']))
      .toBe('Sea wall plan goes to a vote');
    expect(withoutSiteName('Sea wall plan goes to a vote - harbourgazette.co.uk', [null, 'www.harbourgazette.co.uk']))
      .toBe('Sea wall plan goes to a vote');
    expect(withoutSiteName('HarbourGazette | Sea wall plan goes to a vote', [null, 'harbourgazette.com']))
      .toBe('Sea wall plan goes to a vote');
    // The host's main label inside a longer name: "Harbour Gazette Media" on harbourgazette.com.
    expect(withoutSiteName('Sea wall plan goes to a vote – HarbourGazette Media', [null, 'harbourgazette.com']))
      .toBe('Sea wall plan goes to a vote');
  });

  it('keeps segments that do not name the site, long ones, and separators inside words', () => {
    expect(withoutSiteName('The Gazette view on the sea wall | Editorial', ['The Harbour Gazette', 'news.example.com']))
      .toBe('The Gazette view on the sea wall | Editorial');
    expect(withoutSiteName('Sea wall - harbourgazette at the town fair this year', [null, 'harbourgazette.com']))
      .toBe('Sea wall - harbourgazette at the town fair this year');
    expect(withoutSiteName('Sea wall plan | Gazette', ['The Harbour Gazette', null])).toBe('Sea wall plan | Gazette');
    expect(withoutSiteName('Co-op votes on the sea-wall plan', ['Co', 'co.example'])).toBe('Co-op votes on the sea-wall plan');
    expect(withoutSiteName('Harbour Gazette', ['Harbour Gazette', null])).toBe('Harbour Gazette');
  });

  it('drops a separator left dangling at the end', () => {
    expect(withoutSiteName('Sea wall plan goes to a vote -', [null, null])).toBe('Sea wall plan goes to a vote');
  });
});

describe('siteNameBesideHeadline: the name a title sets beside the page\'s own heading', () => {
  const TITLE = 'Marathon in One Year for Beginners » Take The Magic Step®';

  it('is the short side of a separator whose other side is a heading of the page, at either end', () => {
    expect(siteNameBesideHeadline([TITLE], ['Marathon in One Year for Beginners'])).toBe('Take The Magic Step®');
    expect(siteNameBesideHeadline([null, 'Harbour Gazette | Sea wall plan goes to a vote'], ['Sea wall plan goes to a vote']))
      .toBe('Harbour Gazette');
    // A colon straight after a word is a headline's own ("Python: the good parts"), not a separator.
    expect(siteNameBesideHeadline(['Harbour Gazette: Sea wall plan goes to a vote'], ['Sea wall plan goes to a vote'])).toBeNull();
  });

  it('names nothing without agreement, for long names, or when the heading is the shorter side (a logo)', () => {
    expect(siteNameBesideHeadline([TITLE], ['How to train for a marathon'])).toBeNull();
    expect(siteNameBesideHeadline(['Sea wall plan | A very long name for a site'], ['Sea wall plan'])).toBeNull();
    // The site's logo is an <h1>: a short headline must not be taken for the site's name.
    expect(siteNameBesideHeadline(['Sea wall vote | The Harbour Gazette'], ['The Harbour Gazette'])).toBeNull();
    expect(siteNameBesideHeadline(['Marathon in One Year for Beginners'], ['Marathon in One Year for Beginners'])).toBeNull();
  });

  it('takes the site off the title with withoutSiteName, on a copy whose host names no site', () => {
    const name = siteNameBesideHeadline([TITLE], ['Marathon in One Year for Beginners']);
    expect(withoutSiteName(TITLE, [name, '127.0.0.1'])).toBe('Marathon in One Year for Beginners');
    expect(withoutSiteName(TITLE, [null, '127.0.0.1'])).toBe(TITLE);
  });
});
