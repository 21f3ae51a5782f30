import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Stack } from './support/stack.ts';

const run = promisify(execFile);

describe('the key CLI', () => {
  let stack: Stack;
  const folio = (...args: string[]) => run('npx', ['folio', ...args], { env: { ...process.env, ...stack.env } });

  // The CLI writes to the stack's database and the API reads it: nothing here needs a stack of its own.
  beforeAll(() => {
    stack = Stack.shared('plain');
  });
  afterAll(() => stack?.stop());

  it('makes a key that works, prints it alone on the last line, stores only its hash, and deactivates it', async () => {
    const { stdout } = await folio('keys', 'create', '--plan', 'free');
    const key = stdout.trim().split('\n').pop()!;
    expect(key).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);

    // The shared stack holds other files' keys too: this one is the row whose listed prefix the key starts with.
    const rows = await stack.sql`select key_hash, plan, active from api_keys where starts_with(${key}, key_prefix)`;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ plan: 'free', active: true });
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.stringify(await stack.sql`select * from api_keys`);
    expect(stored).not.toContain(key);

    const ok = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'hi', output: 'text' } });
    expect(ok.status).toBe(200);
    expect(ok.body.usage).toEqual({ used_this_period: 1, included: 100, plan: 'free' });

    await folio('keys', 'deactivate', key);
    const refused = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'hi', output: 'text' } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('subscription_inactive');
  });

  it('makes a key with its own limit: after that many successful documents it answers 401 limit_exceeded', async () => {
    const { stdout } = await folio('keys', 'create', '--plan', 'paid', '--limit', '2');
    const key = stdout.trim().split('\n').pop()!;
    for (const n of [1, 2]) {
      const ok = await stack.request('POST', '/v2/convert', { key, json: { markdown: `doc ${n}`, output: 'text' } });
      expect(ok.status).toBe(200);
      expect(ok.body.usage.used_this_period).toBe(n);
    }
    const over = await stack.request('POST', '/v2/convert', { key, json: { markdown: 'doc 3', output: 'text' } });
    expect(over.status).toBe(401);
    expect(over.body.error).toEqual({ code: 'limit_exceeded', message: expect.any(String), retryable: false });
  });

  it('refuses a wrong plan with usage help', async () => {
    await expect(folio('keys', 'create', '--plan', 'gold')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--plan must be free or paid') });
  });

  it('keeps keys out of the logs, even when sent as a query parameter', async () => {
    const key = await stack.createKey();
    await stack.request('GET', `/v2/convert?markdown=x&output=text&api_key=${key}`);
    await new Promise((r) => setTimeout(r, 300));
    const { readFile, readdir } = await import('node:fs/promises');
    const dir = `${stack.env.FOLIO_STATE_DIR}/logs`;
    const logs = await Promise.all((await readdir(dir)).map((f) => readFile(`${dir}/${f}`, 'utf8')));
    expect(logs.join('\n')).toContain('api_key=[redacted]');
    expect(logs.join('\n')).not.toContain(key);
  });
});
