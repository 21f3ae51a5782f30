import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { knownModule } from './scopes.ts';

/** A project with one dependency: ESM at its root, a CommonJS folder inside it (its own package.json), and a bare import. */
function project(): { root: string; dep: string } {
  const root = mkdtempSync(join(tmpdir(), 'folio-scopes-'));
  const dep = join(root, 'node_modules', 'dep');
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'dep', type: 'module', exports: { '.': './index.js' } }),
    'index.js': "import { esm } from './lib/esm.js';\nimport cjs from './cjs/legacy.js';\nexport default { esm, cjs };\n",
    'lib/esm.js': "export const esm = typeof require === 'undefined' ? 'module' : 'commonjs';\n",
    'cjs/package.json': JSON.stringify({ type: 'commonjs' }),
    'cjs/legacy.js': "module.exports = typeof require === 'undefined' ? 'module' : 'commonjs';\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dep, name)), { recursive: true });
    writeFileSync(join(dep, name), text);
  }
  writeFileSync(join(root, 'main.mjs'), "import dep from 'dep';\nconsole.log(JSON.stringify(dep));\n");
  return { root, dep };
}

const IMPORT = ['node', 'import'];

describe('the module formats known without Node’s resolver', () => {
  it('answers a relative .js import from a dependency in an ESM scope, and leaves everything else to Node', () => {
    const { root, dep } = project();
    const from = pathToFileURL(join(dep, 'index.js')).href;
    expect(knownModule('./lib/esm.js', from, IMPORT)).toBe(pathToFileURL(join(dep, 'lib/esm.js')).href);
    // A folder whose own package.json says commonjs, a require, a bare name, the project's own code, a query.
    expect(knownModule('./cjs/legacy.js', from, IMPORT)).toBeNull();
    expect(knownModule('./lib/esm.js', from, ['node', 'require'])).toBeNull();
    expect(knownModule('dep', from, IMPORT)).toBeNull();
    expect(knownModule('./lib/esm.js', pathToFileURL(join(root, 'main.mjs')).href, IMPORT)).toBeNull();
    expect(knownModule('./lib/esm.js?x=1', from, IMPORT)).toBeNull();
    expect(knownModule('./lib/esm.ts', from, IMPORT)).toBeNull();
  });

  it('loads a package as Node alone does, with the hook registered', () => {
    const { root } = project();
    const hook = resolve(import.meta.dirname, 'index.ts');
    const alone = execFileSync(process.execPath, ['main.mjs'], { cwd: root, encoding: 'utf8' });
    const hooked = execFileSync(process.execPath, ['--import', pathToFileURL(hook).href, 'main.mjs'], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(alone)).toEqual({ esm: 'module', cjs: 'commonjs' });
    expect(hooked).toBe(alone);
  });
});
