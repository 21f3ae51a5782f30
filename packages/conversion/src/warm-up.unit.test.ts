import { describe, expect, it } from 'vitest';
import { warmUp } from './warm-up.ts';

describe('a conversion worker warming up', () => {
  it('converts its own page through extraction, the sanitiser and Markdown, so the path a first job takes is compiled', async () => {
    expect(await warmUp()).toBe(true);
  });
});
