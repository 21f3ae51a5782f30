import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

/**
 * What a user gets from `npm install @folio/sdk`: the packed tarball (built by its prepack), installed into a
 * project outside this repository, so nothing resolves through the workspace. Installed with --offline: its only
 * dependency, openapi-fetch, is in npm's cache after the workspace install.
 */
describe('the packed package', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-sdk-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PACKAGE });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed!.filename)], { cwd: dir });
  }, 180_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('imports as ESM with Folio, verifyWebhook and FolioError', async () => {
    const script = "import { Folio, verifyWebhook, FolioError } from '@folio/sdk'; console.log([typeof Folio, typeof verifyWebhook, typeof FolioError].join())";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
    expect(stdout.trim()).toBe('function,function,function');
  });

  it('carries its type declarations, output narrowing included', async () => {
    await writeFile(
      join(dir, 'use.ts'),
      [
        "import { Folio, type ConvertFileResponse } from '@folio/sdk';",
        "const folio = new Folio({ apiKey: 'k', baseUrl: 'https://folio.example' });",
        "export const pdf: Promise<ConvertFileResponse> = folio.convert({ markdown: 'x', output: 'pdf' });",
        '// @ts-expect-error: not a parameter',
        "folio.convert({ markdown: 'x', colour: 'red' });",
      ].join('\n'),
    );
    // The consumer has no @types/node: the declarations must stand on the DOM's fetch and Web Crypto alone.
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2023,dom', 'use.ts'];
    await expect(run(process.execPath, [TSC, ...args], { cwd: dir })).resolves.toBeDefined();
  });

  it('ships no tests, scripts or sources beside dist', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { files: { path: string }[] }[];
    const paths = packed!.files.map((f) => f.path);
    expect(paths).toContain('dist/index.d.ts');
    expect(paths.filter((p) => !p.startsWith('dist/') && !['package.json', 'README.md'].includes(p))).toEqual([]);
    expect(paths.filter((p) => /test|fake-api/.test(p))).toEqual([]);
  });
});
