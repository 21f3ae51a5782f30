import { describe, expect, it } from 'vitest';
import { headlineInTitle, headlineOf, siteNameBesideHeadline, withoutSiteName } from './title.ts';

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

  it('keeps a segment that holds the page\'s heading, though it starts with the brand the host is named after', () => {
    // A product page: the brand leads the product's name, and the variant follows it.
    expect(withoutSiteName('Gymshark Arrival T-Shirt - Black', [null, 'www.gymshark.com'], ['Arrival T-Shirt']))
      .toBe('Gymshark Arrival T-Shirt - Black');
    expect(withoutSiteName('Gymshark | Arrival T-Shirt', [null, 'www.gymshark.com'], ['Arrival T-Shirt'])).toBe('Arrival T-Shirt');
    // A logo set in an <h1> is the site's name, not a headline: the segment that holds it still goes.
    expect(withoutSiteName('Sea wall plan goes to a vote | Harbour Gazette', [null, 'harbourgazette.com'], ['HarbourGazette']))
      .toBe('Sea wall plan goes to a vote');
    expect(withoutSiteName('Harbour Gazette | Sea wall plan goes to a vote', ['The Harbour Gazette', null], ['Harbour Gazette']))
      .toBe('Sea wall plan goes to a vote');
    // A heading that holds the host's label is the site's header, even beside the page's own heading.
    expect(withoutSiteName('ORM Quick Start — SQLAlchemy 2.0 Documentation', [null, 'docs.sqlalchemy.org'], ['SQLAlchemy 2.0 Documentation', 'ORM Quick Start']))
      .toBe('ORM Quick Start');
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

describe('headlineInTitle: the page\'s heading inside a title that adds the site\'s name and a category', () => {
  const HEADING = 'Wireless Headphones Bluetooth 2024, 50H Playtime, Semi-in-Ear Headphone with Mic (White)';

  it('is the heading, in the title\'s own words, with the site and a category on either side', () => {
    expect(headlineInTitle(`Amazon.com: ${HEADING} : Electronics`, [HEADING], [null, 'www.amazon.com'])).toBe(HEADING);
    expect(headlineInTitle('Apple AirPods Pro 2nd generation with MagSafe: Amazon.co.uk: Electronics & Photo',
      ['Apple AirPods Pro 2nd generation with MagSafe'], [null, 'www.amazon.co.uk']))
      .toBe('Apple AirPods Pro 2nd generation with MagSafe');
    // A heading set in capitals by the page's CSS or its markup: the title says it as it should read.
    expect(headlineInTitle('White Speckle Stoneware Mug | Kitchen | Harbour Pottery', ['white speckle stoneware mug'],
      ['Harbour Pottery', null])).toBe('White Speckle Stoneware Mug');
  });

  it('is the heading that opens a title closed by a section and a name the page states nowhere else', () => {
    expect(headlineInTitle('Using the Fetch API - Web APIs | MDN', ['Using the Fetch API'], [null, 'developer.mozilla.org']))
      .toBe('Using the Fetch API');
    // One short segment after the heading may be its subtitle; a heading that is not the longer part is not the headline.
    expect(headlineInTitle('Using the Fetch API - Web APIs', ['Using the Fetch API'], [null, 'developer.mozilla.org'])).toBeNull();
    expect(headlineInTitle('Fetch - Web APIs and more | MDN', ['Fetch'], [null, 'developer.mozilla.org'])).toBeNull();
    // The heading in the middle of the title: which side is the site's is not said.
    expect(headlineInTitle('Web APIs | Using the Fetch API | MDN', ['Using the Fetch API'], [null, 'developer.mozilla.org'])).toBeNull();
  });

  it('leaves out the site\'s name the heading carries as well, but not a brand it starts with', () => {
    expect(headlineInTitle('Best UK Art Exhibitions 2025 – Artlyst - Artlyst', ['Best UK Art Exhibitions 2025 – Artlyst'],
      ['Artlyst', 'artlyst.com'])).toBe('Best UK Art Exhibitions 2025');
    expect(headlineInTitle('Nintendo Switch - OLED Model - Nintendo Official Site', ['Nintendo Switch - OLED Model'],
      [null, 'www.nintendo.com'])).toBe('Nintendo Switch - OLED Model');
  });

  it('is nothing when the rest names no site, is the longer part, or the title holds two of the page\'s headings', () => {
    expect(headlineInTitle('Amazon Best Sellers: Best Electronics', ['Amazon Best Sellers'], [null, 'www.example.com']))
      .toBeNull();
    // "Python" is a heading here, but the rest is the longer part of the headline.
    expect(headlineInTitle('Python: the good parts | Harbour Books', ['Python'], [null, 'harbourbooks.com'])).toBeNull();
    // The site's logo is an <h1>, shorter than the headline beside it.
    expect(headlineInTitle('Sea wall plan goes to a vote | Harbour Gazette', ['Harbour Gazette'], ['Harbour Gazette', null]))
      .toBeNull();
    // The site's name as siteNameBesideHeadline reads such a page is the topic, which makes the manual's <h1> look like
    // the headline.
    expect(headlineInTitle('ORM Quick Start — SQLAlchemy 2.0 Documentation', ['ORM Quick Start', 'SQLAlchemy 2.0 Documentation'],
      ['ORM Quick Start', 'docs.sqlalchemy.org'])).toBeNull();
    expect(headlineInTitle(HEADING, [HEADING], [null, 'www.amazon.com'])).toBeNull();
  });

  it('leaves a title of many segments alone (each run of segments is tried, so their number is bounded)', () => {
    const heading = Array.from({ length: 11 }, (_, i) => `part ${i}`).join(' - ');
    expect(headlineInTitle(`${heading} - Amazon.com`, [heading], [null, 'www.amazon.com'])).toBeNull();
    const short = 'part 0 - part 1 - part 2';
    expect(headlineInTitle(`${short} - Amazon.com`, [short], [null, 'www.amazon.com'])).toBe(short);
  });
});

describe('headlineOf: the title a document is given', () => {
  it('takes the page\'s own heading for a title that names no page', () => {
    expect(headlineOf('Home Page', 'Home Page', ['Welcome to Best Sharpening Stones'], [null, 'bestsharpeningstones.com']))
      .toBe('Welcome to Best Sharpening Stones');
    expect(headlineOf('Home | Harbour Gazette', 'Home | Harbour Gazette', ['Harbour Gazette', 'Sea wall plan goes to a vote¶'], ['Harbour Gazette', null]))
      .toBe('Sea wall plan goes to a vote');
    // Only a logo for a heading, or none: the title stays as it is.
    expect(headlineOf('Home | Harbour Gazette', 'Home | Harbour Gazette', ['Harbour Gazette'], ['Harbour Gazette', null])).toBe('Home');
    expect(headlineOf('Untitled', 'Untitled', [], [null, 'example.com'])).toBe('Untitled');
    // A title that names something keeps it, whatever the heading says.
    expect(headlineOf('Home Gym Buying Guide', 'Home Gym Buying Guide', ['Buying guides'], [null, 'example.com'])).toBe('Home Gym Buying Guide');
  });

  const SITES = [null, 'www.amazon.com'];
  const HEADING = 'Wireless Headphones with Mic, Semi-in-Ear (White)';

  it('takes the heading from the page\'s <title> when Readability\'s title has lost the site\'s name', () => {
    expect(headlineOf(`${HEADING}: Electronics`, `Amazon.com: ${HEADING}: Electronics`, [HEADING], SITES)).toBe(HEADING);
  });

  it('only takes words off Readability\'s title, in its own typography', () => {
    // An og:title written for sharing: the page's <title> holds the heading, but the document keeps the og:title.
    expect(headlineOf('Ten headphones we loved this year', `Amazon.com: ${HEADING}: Electronics`, [HEADING], SITES))
      .toBe('Ten headphones we loved this year');
    expect(headlineOf('‘Wireless’ Headphones with Mic and Case', "Amazon.com: 'Wireless' Headphones with Mic and Case",
      ["'Wireless' Headphones with Mic and Case"], SITES)).toBe('‘Wireless’ Headphones with Mic and Case');
  });
});
