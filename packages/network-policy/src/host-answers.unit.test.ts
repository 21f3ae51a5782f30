import { describe, expect, it } from 'vitest';
import { ANSWER_TTL_MS, HostAnswers, NetworkPolicy, type Resolve } from './index.ts';

/** A resolver that answers from a table and counts the queries it was asked. */
function resolver(table: Record<string, string[] | string>) {
  const asked: string[] = [];
  const resolve: Resolve = async (name) => {
    asked.push(name);
    const answer = table[name];
    if (typeof answer === 'string') throw Object.assign(new Error(`${answer} ${name}`), { code: answer });
    return (answer ?? []).map((address) => ({ address }));
  };
  return { resolve, asked };
}

describe("hosts' answers, kept for the requests that follow", () => {
  it('asks once for a host named again within the time an answer is kept, in any case, and again after it', async () => {
    let now = 1_000;
    const { resolve, asked } = resolver({ 'site.example': ['93.184.216.34'] });
    const answers = new HostAnswers(resolve, () => now);
    expect(await answers.addresses('site.example')).toEqual([{ address: '93.184.216.34' }]);
    now += ANSWER_TTL_MS - 1;
    expect(await answers.addresses('SITE.example')).toEqual([{ address: '93.184.216.34' }]);
    expect(asked).toEqual(['site.example']);
    now += 1;
    await answers.addresses('site.example');
    expect(asked).toEqual(['site.example', 'site.example']);
  });

  it('shares one query among the requests that name a host at once', async () => {
    const { resolve, asked } = resolver({ 'site.example': ['93.184.216.34'] });
    const answers = new HostAnswers(resolve);
    await Promise.all(Array.from({ length: 20 }, () => answers.addresses('site.example')));
    expect(asked).toHaveLength(1);
  });

  it('keeps "no such name" like an answer, and asks again after a resolver that failed to answer', async () => {
    const { resolve, asked } = resolver({ 'gone.example': 'ENOTFOUND', 'slow.example': 'EAI_AGAIN' });
    const answers = new HostAnswers(resolve);
    for (let i = 0; i < 2; i++) {
      await expect(answers.addresses('gone.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
      await expect(answers.addresses('slow.example')).rejects.toMatchObject({ code: 'EAI_AGAIN' });
    }
    expect(asked).toEqual(['gone.example', 'slow.example', 'slow.example']);
  });

  it("serve the policy's checks: a kept answer decides as a fresh one would", async () => {
    const { resolve, asked } = resolver({ 'public.example': ['93.184.216.34'], 'inside.example': ['10.0.0.7'], 'gone.example': 'ENOTFOUND' });
    const policy = new NetworkPolicy([], new HostAnswers(resolve));
    for (let i = 0; i < 3; i++) {
      expect(await policy.refusesHost('inside.example')).toBe(true);
      expect(await policy.refusesHost('public.example')).toBe(false);
      expect(await policy.allowsHost('public.example')).toBe(true);
      expect(await policy.allowsHost('inside.example')).toBe(false);
      expect(await policy.allowsHost('gone.example')).toBe(false);
      expect(await policy.refusesHost('gone.example')).toBe(false);
    }
    expect(asked.sort()).toEqual(['gone.example', 'inside.example', 'public.example']);
  });
});
