import { describe, expect, it } from 'vitest';
import { ARTICLE_KEPT_WORDS, BODY_RATIO, bodyIsBetter, bodyMayBeBetter, FRAGMENT_WORDS, REGION_WHOLE_RATIO, regionIsBetter } from './main-region.ts';

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('regionIsBetter: when the page’s main region replaces what Readability kept', () => {
  const kept = words('kept', 100);

  it('takes a region that holds what was kept and much more', () => {
    expect(regionIsBetter(kept, `${kept} ${words('more', 100)}`)).toBe(true);
  });

  it('leaves a region that holds too little more, even when it holds what was kept', () => {
    expect(regionIsBetter(kept, `${kept} ${words('more', 20)}`)).toBe(false);
  });

  it('leaves a region twice as long that does not hold what was kept: it may be another part of the page', () => {
    expect(regionIsBetter(kept, words('other', 200))).toBe(false);
  });

  it(`takes a region ${REGION_WHOLE_RATIO}× as long without what was kept: a panel beside so much is not the content`, () => {
    // A store page's hidden reviews-by-language flyout, a "go to top" link: Readability's pick, which the region's
    // cleanup drops.
    expect(regionIsBetter(kept, words('other', 100 * REGION_WHOLE_RATIO))).toBe(true);
    expect(regionIsBetter(kept, words('other', 100 * REGION_WHOLE_RATIO - 1))).toBe(false);
  });
});

describe('bodyIsBetter: when the page’s body without its frame replaces what was kept', () => {
  it('always stands in for nothing', () => {
    expect(bodyIsBetter(0, 0)).toBe(true);
    expect(bodyIsBetter(0, 500)).toBe(true);
  });

  it(`stands in for a fragment (at most ${FRAGMENT_WORDS} words) when it holds ${BODY_RATIO}× as many`, () => {
    expect(bodyIsBetter(40, 40 * BODY_RATIO)).toBe(true);
    expect(bodyIsBetter(40, 40 * BODY_RATIO - 1)).toBe(false);
    expect(bodyIsBetter(FRAGMENT_WORDS, FRAGMENT_WORDS * BODY_RATIO)).toBe(true);
  });

  it('leaves what was kept alone once it is more than a fragment, however much the body holds', () => {
    expect(bodyIsBetter(FRAGMENT_WORDS + 1, 100 * FRAGMENT_WORDS)).toBe(false);
  });

  it('leaves a short description alone on a page that states it offers one product, and stands in for nothing there too', () => {
    expect(bodyIsBetter(99, 1895, { oneProduct: true })).toBe(false);
    expect(bodyIsBetter(99, 1895)).toBe(true);
    expect(bodyIsBetter(0, 1895, { oneProduct: true })).toBe(true);
  });

  it(`leaves a short post alone on a page whose og:type is article, unless it is under ${ARTICLE_KEPT_WORDS} words`, () => {
    expect(bodyIsBetter(ARTICLE_KEPT_WORDS, 1222, { articlePage: true })).toBe(false);
    expect(bodyIsBetter(ARTICLE_KEPT_WORDS, 1222)).toBe(true);
    expect(bodyIsBetter(ARTICLE_KEPT_WORDS - 1, 1222, { articlePage: true })).toBe(true);
    expect(bodyIsBetter(0, 1222, { articlePage: true })).toBe(true);
  });

  it('is looked at only where it may stand in, so a product page with a description is not parsed again for it', () => {
    expect(bodyMayBeBetter(99, { oneProduct: true })).toBe(false);
    expect(bodyMayBeBetter(0, { oneProduct: true })).toBe(true);
    expect(bodyMayBeBetter(FRAGMENT_WORDS)).toBe(true);
    expect(bodyMayBeBetter(FRAGMENT_WORDS + 1)).toBe(false);
    expect(bodyMayBeBetter(ARTICLE_KEPT_WORDS, { articlePage: true })).toBe(false);
  });
});
