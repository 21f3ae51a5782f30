import { describe, expect, it } from 'vitest';
import { REGION_WHOLE_RATIO, regionIsBetter } from './main-region.ts';

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
