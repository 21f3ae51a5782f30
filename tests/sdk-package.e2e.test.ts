import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaFromDocument, SCHEMA_FILE } from '../packages/sdk/scripts/schema-source.ts';
import { Stack } from './support/stack.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../packages/sdk', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

/**
 * The SDK's runtime dependencies and theirs, as the workspace installed them (the versions the SDK pins), each a
 * folder under node_modules that `npm pack` turns back into the registry's tarball.
 */
async function runtimeDependencies(): Promise<string[]> {
  const found = new Set<string>();
  const visit = async (manifest: string) => {
    const { dependencies = {} } = JSON.parse(await readFile(manifest, 'utf8')) as { dependencies?: Record<string, string> };
    for (const name of Object.keys(dependencies)) {
      const folder = join(ROOT, 'node_modules', name);
      if (found.has(folder)) continue;
      found.add(folder);
      await visit(join(folder, 'package.json'));
    }
  };
  await visit(join(PACKAGE, 'package.json'));
  return [...found];
}

/**
 * What a user gets from `npm install @folio/sdk`: the packed tarball (built by its prepack), installed into a
 * project outside this repository, so nothing resolves through the workspace, and used there against the running
 * stack. The install is offline with an empty npm cache of its own, so it depends on nothing a previous install left
 * behind: the SDK's dependencies (openapi-fetch and what it needs) are packed from the workspace's node_modules and
 * installed beside it.
 */
describe('@folio/sdk as a user installs it', () => {
  let dir: string;
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = Stack.shared('plain');
    key = await stack.createKey('paid');
    dir = await mkdtemp(join(tmpdir(), 'folio-sdk-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PACKAGE });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // --ignore-scripts: a published package's own build scripts (prepack) need its sources, which it does not ship.
    const dependencies = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir, ...(await runtimeDependencies())], { cwd: dir });
    const tarballs = [packed!, ...(JSON.parse(dependencies.stdout.slice(dependencies.stdout.indexOf('['))) as { filename: string }[])].map((p) => join(dir, p.filename));
    const cache = join(dir, '.npm-cache');
    await run('npm', ['install', '--offline', '--cache', cache, '--no-audit', '--no-fund', ...tarballs], { cwd: dir });
  }, 180_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await stack?.stop();
  });

  it('is typed from what the running API documents: its committed types are what GET /v2/openapi.json generates', async () => {
    const served = await (await fetch(`${stack.url}/v2/openapi.json`)).json();
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(await schemaFromDocument(served));
  });

  it('converts against the stack from a project of its own', async () => {
    const script = `
      import { Folio, FolioError } from '@folio/sdk';
      const folio = new Folio({ apiKey: process.env.KEY, baseUrl: process.env.BASE });
      const text = await folio.convert({ markdown: '# Packed\\n\\nFrom outside the repository.', output: 'text' });
      const pdf = await folio.convert({ markdown: '# Packed', output: 'pdf' });
      const head = Buffer.from(await (await fetch(pdf.file_url)).arrayBuffer()).subarray(0, 5).toString();
      const job = await folio.jobs.wait((await folio.convertAsync({ markdown: '# later', output: 'html' })).job_id);
      const refused = await folio.jobs.get('00000000-0000-7000-8000-000000000000').catch((e) => e instanceof FolioError && e.code);
      console.log(JSON.stringify({ text: text.content, head, job: job.status, refused }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env: { ...process.env, KEY: key, BASE: stack.url } });
    expect(JSON.parse(stdout)).toEqual({ text: expect.stringContaining('From outside the repository.'), head: '%PDF-', job: 'succeeded', refused: 'job_not_found' });
  });

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
