import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * "Run of <UTC minute>, commit <hash>, Node <version>" and whether the tree had uncommitted changes: what every figure
 * is stamped with.
 */
export function runStamp(): string {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  // The figures files themselves do not count: an earlier benchmark of the same run has just written them.
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.',
    ':(exclude)docs/benchmarks.md', ':(exclude)docs/scaling.md'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
  return `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}${dirty ? ' (with uncommitted changes)' : ''}, Node ${process.versions.node}`;
}

/**
 * Prints a benchmark's section and writes it into `file` (docs/benchmarks.md unless said) between its markers
 * (`<!-- bench:<name> (written by …) -->` … `<!-- /bench:<name> -->`), so no figure there is typed by hand.
 */
export function writeSection(name: string, script: string, body: string, file = 'docs/benchmarks.md'): void {
  const section = `<!-- bench:${name} (written by ${script}) -->\n${body.trim()}\n<!-- /bench:${name} -->`;
  process.stdout.write(`\n${section}\n`);
  const docs = resolve(ROOT, file);
  const text = readFileSync(docs, 'utf8');
  // The name is followed by a space, so that `render` does not take `render-end-to-end`'s opening marker for its own.
  const marked = new RegExp(`<!-- bench:${name} [^]*?<!-- /bench:${name} -->`);
  if (marked.test(text)) writeFileSync(docs, text.replace(marked, () => section));
  else process.stderr.write(`${file} has no bench:${name} markers: the figures are printed above only\n`);
}

/** "met" or "NOT met", as every benchmark prints its targets. */
export function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}
