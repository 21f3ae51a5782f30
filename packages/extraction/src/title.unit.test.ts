import { describe, expect, it } from 'vitest';
import { withoutSiteName } from './title.ts';

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
