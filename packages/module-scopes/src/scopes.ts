import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each folder's scope: the "type" of its nearest package.json, read once for every folder on the way up to it. */
const scopes = new Map<string, string | null>();

function scopeType(folder: string): string | null {
  const walked: string[] = [];
  let type: string | null = null;
  for (let dir = folder; ; dir = dirname(dir)) {
    const known = scopes.get(dir);
    if (known !== undefined) {
      type = known;
      break;
    }
    walked.push(dir);
    const manifest = readManifest(join(dir, 'package.json'));
    if (manifest !== undefined) {
      type = manifest;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  for (const dir of walked) scopes.set(dir, type);
  return type;
}

/** The "type" of the package.json at `file` ('commonjs' when it names none), null if unreadable, undefined if absent. */
function readManifest(file: string): string | null | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  }
  try {
    const type = (JSON.parse(text) as { type?: unknown }).type;
    return typeof type === 'string' ? type : 'commonjs';
  } catch {
    return null; // Node's own resolution reports a broken package.json
  }
}

/**
 * The URL and format Node would resolve `specifier` to, when the answer is certain without Node's resolver: a relative
 * `.js` import from a dependency's ESM module (the `import` condition), of a file in a `"type": "module"` scope.
 * Null for everything else, which Node resolves itself.
 */
export function knownModule(specifier: string, parentURL: string | undefined, conditions: readonly string[] | undefined): string | null {
  if (!(specifier.startsWith('./') || specifier.startsWith('../')) || !specifier.endsWith('.js')) return null;
  if (!parentURL?.startsWith('file:') || !parentURL.includes('/node_modules/') || !conditions?.includes('import')) return null;
  const url = new URL(specifier, parentURL);
  if (url.search !== '' || url.hash !== '') return null;
  return scopeType(dirname(fileURLToPath(url))) === 'module' ? url.href : null;
}
