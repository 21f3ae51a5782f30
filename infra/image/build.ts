// `npm run image [-- --smoke]`: builds Folio's image (Containerfile) with Podman on this machine, which reaches no
// image registry. The Containerfile's base, by default the official Node image (slim Debian bookworm with Node 24), is
// made here instead, once: a Debian bookworm from Debian's packages (mmdebstrap), slimmed as Debian's slim images
// are, with the official Node build and npm that infra/bootstrap.mjs --image fetched from the npm registry, at the
// paths the official image has them; `podman import` makes it an image. Then `podman build`, on the host's network
// (the build installs Debian packages and runs npm ci). `--smoke` then runs infra/image/smoke.ts against the image.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finished, IMAGE, imageId, podman, podmanEnv, spawnPodman } from './podman.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const say = (line: string) => process.stderr.write(`image: ${line}\n`);
const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

const SUITE = 'bookworm';
const MIRRORS = [
  `deb http://deb.debian.org/debian ${SUITE} main`,
  `deb http://deb.debian.org/debian ${SUITE}-updates main`,
  `deb http://deb.debian.org/debian-security ${SUITE}-security main`,
];
/**
 * What Debian's slim images leave out (documentation, manuals, translations), as dpkg settings that stay in the base
 * so that the packages the Containerfile installs leave them out too.
 */
const SLIM = [
  'path-exclude=/usr/share/doc/*',
  'path-include=/usr/share/doc/*/copyright',
  'path-exclude=/usr/share/man/*',
  'path-exclude=/usr/share/groff/*',
  'path-exclude=/usr/share/info/*',
  'path-exclude=/usr/share/lintian/*',
  'path-exclude=/usr/share/locale/*',
  'path-include=/usr/share/locale/locale.alias',
];
/** The label on the base that says what it was made from; a base with another is made again. */
const STAMP_LABEL = 'org.folio.base';

/** The folders infra/bootstrap.mjs --image filled (the command is run through it). */
function fromBootstrap(name: 'FOLIO_IMAGE_NODE_DIR' | 'FOLIO_IMAGE_NPM_DIR'): string {
  const dir = process.env[name];
  if (!dir || !fs.existsSync(dir)) throw new Error(`${name} is not set: run this through \`npm run image\` (node infra/bootstrap.mjs --image …)`);
  return dir;
}

/**
 * Puts Node and npm where the official image has them (npm and npx as links to npm's scripts), leaving bootstrap's
 * marker out. mmdebstrap runs it with the new system's root as $1; the folders come in the environment.
 */
const HOOK = [
  'set -eu',
  'install -D -m 0755 "$FOLIO_NODE_DIR/bin/node" "$1/usr/local/bin/node"',
  'install -D -m 0644 "$FOLIO_NODE_DIR/LICENSE" "$1/usr/local/share/doc/node/LICENSE"',
  'mkdir -p "$1/usr/local/lib/node_modules"',
  'cp -R "$FOLIO_NPM_DIR" "$1/usr/local/lib/node_modules/npm"',
  'rm -f "$1/usr/local/lib/node_modules/npm/.complete"',
  'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
  'ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
].join('\n');

/**
 * The base image: made with mmdebstrap and imported when it is missing or was made from something else, else left
 * as it is. Returns its name.
 */
function ensureBase(): string {
  const nodeDir = fromBootstrap('FOLIO_IMAGE_NODE_DIR');
  const npmDir = fromBootstrap('FOLIO_IMAGE_NPM_DIR');
  const nodeVersion = spawnSync(path.join(nodeDir, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
  const npmVersion = (JSON.parse(fs.readFileSync(path.join(npmDir, 'package.json'), 'utf8')) as { version: string }).version;
  const name = `localhost/node:${nodeVersion}-${SUITE}-slim`;
  const recipe = JSON.stringify({ SUITE, MIRRORS, SLIM, HOOK, nodeVersion, npmVersion });
  const stamp = createHash('sha256').update(recipe).digest('hex').slice(0, 16);
  const madeFrom = imageId(name) ? podman(['image', 'inspect', '--format', `{{index .Labels "${STAMP_LABEL}"}}`, name]).trim() : '';
  if (madeFrom === stamp) {
    say(`base ${name} is there`);
    return name;
  }
  say(`making the base ${name} (Debian ${SUITE} from Debian's packages with mmdebstrap, Node ${nodeVersion}, npm ${npmVersion})`);
  const t0 = performance.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-base-'));
  try {
    const tar = path.join(tmp, 'base.tar');
    const made = spawnSync('mmdebstrap', [
      '--variant=minbase', '--mode=root', '--format=tar',
      ...SLIM.map((option) => `--dpkgopt=${option}`),
      `--customize-hook=${HOOK}`,
      SUITE, tar, ...MIRRORS,
    ], { stdio: ['ignore', process.stderr, process.stderr], env: { ...process.env, FOLIO_NODE_DIR: nodeDir, FOLIO_NPM_DIR: npmDir } });
    if (made.error) throw new Error(`mmdebstrap: ${made.error.message} (npm run image installs it)`);
    if (made.status !== 0) throw new Error(`mmdebstrap failed (exit ${made.status ?? made.signal})`);
    podman([
      'import',
      '--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change', 'CMD ["node"]',
      '--change', `LABEL ${STAMP_LABEL}=${stamp}`,
      tar, name,
    ]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  say(`made the base ${name} (${seconds(t0)})`);
  return name;
}

/** `podman build` of the Containerfile on that base; the image it replaces is removed (its layers the new one shares stay). */
async function build(base: string): Promise<void> {
  const previous = imageId(IMAGE);
  // A registry behind a TLS-inspecting proxy (this machine's) is trusted through NODE_EXTRA_CA_CERTS: npm ci in the
  // build needs the same CA, which it gets as a build secret (never in a layer).
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  const secret = ca && fs.existsSync(ca) ? ['--secret', `id=extra-ca,src=${ca}`] : [];
  say(`building ${IMAGE}`);
  const t0 = performance.now();
  const args = [
    'build', '--network', 'host', '--pull=never', '--layers', '-f', path.join(root, 'Containerfile'), '-t', IMAGE,
    '--build-arg', `BASE_IMAGE=${base}`, ...secret, root,
  ];
  await finished(spawnPodman(args, ['ignore', process.stderr, process.stderr]), 'podman build');
  const id = imageId(IMAGE);
  if (previous && previous !== id) {
    // Still used by a container, or the parent of another image: then it stays.
    spawnSync('podman', ['rmi', previous], { stdio: 'ignore', env: podmanEnv() });
  }
  const size = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]).trim());
  say(`built ${IMAGE} (${seconds(t0)}): ${(size / 1e6).toFixed(0)} MB${previous === id ? ', unchanged' : ''}`);
}

async function smoke(): Promise<void> {
  const child = spawn(process.execPath, [path.join(root, 'infra/image/smoke.ts')], { cwd: root, stdio: 'inherit' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the smoke test failed (exit ${code})`))));
  });
}

async function main(): Promise<void> {
  const unknown = process.argv.slice(2).filter((a) => a !== '--smoke');
  if (unknown.length) throw new Error(`unknown argument ${unknown[0]} (npm run image [-- --smoke])`);
  // Podman runs rootful here and mmdebstrap makes the base as root (--mode=root).
  if (process.getuid?.() !== 0) throw new Error('npm run image needs root');
  const base = ensureBase();
  await build(base);
  if (process.argv.includes('--smoke')) await smoke();
}

main().catch((err: Error) => {
  say(`ERROR: ${err.message}`);
  process.exit(1);
});
