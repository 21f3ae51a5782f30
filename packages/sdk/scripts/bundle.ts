import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * The SDK as a web app's bundler would ship it: one ESM file for the browser, tree-shaken to what `entry` (module
 * source importing from './index.ts') uses. For the browser test and the size budget.
 */
export async function bundleSdk(entry: string, options: { minify?: boolean } = {}): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: fileURLToPath(new URL('../src', import.meta.url)), loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: options.minify ?? false,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
