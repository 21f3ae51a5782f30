// @confluentinc/kafka-javascript for bench/kafka-clients, made once into the cache (never into Folio's package.json:
// it does not install from the npm registry alone, so Folio cannot depend on it).
//
// What a plain `npm install @confluentinc/kafka-javascript@1.10.1` does here (tried on Node 24.21, npm 11.19): its
// install script, `node-pre-gyp install --fallback-to-build`, asks github.com for a prebuilt binary (fails at once:
// getaddrinfo ENOTFOUND, no hang), falls back to node-gyp, which takes the headers of the Node that npm's own folder
// points at (/usr/include/node: Debian's Node 20, the wrong ABI for Node 24), and the bundled librdkafka's
// `configure --install-deps --source-deps-only` downloads zlib, OpenSSL, zstd and curl sources from their sites:
// every download fails and so does the build (`No rule to make target '../deps/librdkafka/config.h'`), in ~5 s.
//
// What works: the same package's sources, built against Node's own headers (`include/node` of the npm registry's
// node-<os>-<arch> package at exactly the running version, given as npm_config_nodedir), with
// CKJS_LINKING=dynamic, which configures the bundled librdkafka without downloading anything and links it against
// the system's libraries (Debian: libssl-dev, zlib1g-dev, libzstd-dev, liblz4-dev, libsasl2-dev,
// libcurl4-openssl-dev; build-essential, python3, pkg-config). librdkafka.so lands beside the addon (rpath
// $ORIGIN/../deps), so the finished folder can be moved into place. ~90 s on two cores.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../../infra/services/index.ts';

export const CONFLUENT_VERSION = '1.10.1';

export type ConfluentBuild =
  | { ok: true; dir: string; librdkafka: string; built: boolean; seconds: number }
  | { ok: false; reason: string };

const MISSING_TOOLS = ['cc', 'c++', 'make', 'python3', 'pkg-config'];

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The folder holding node_modules/@confluentinc/kafka-javascript, built if it is not there yet. */
export function ensureConfluent(log: (line: string) => void): ConfluentBuild {
  const dir = join(cacheDir(), 'bench', `confluent-kafka-javascript-${CONFLUENT_VERSION}`);
  const stamp = `${CONFLUENT_VERSION} node ${process.versions.node} (abi ${process.versions.modules})`;
  const marker = join(dir, '.complete');
  const probe = (at: string): string =>
    execFileSync(process.execPath, ['-e', "process.stdout.write(require('@confluentinc/kafka-javascript').librdkafkaVersion)"], {
      cwd: at,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === stamp) {
    try {
      return { ok: true, dir, librdkafka: probe(dir), built: false, seconds: 0 };
    } catch (error) {
      log(`confluent: the cached build in ${dir} does not load (${(error as Error).message.split('\n')[0]}): building again`);
    }
  }
  if (process.platform !== 'linux') return { ok: false, reason: `building it is scripted for Linux only (this is ${process.platform})` };
  const missing = MISSING_TOOLS.filter((tool) => !onPath(tool));
  if (missing.length > 0) {
    return { ok: false, reason: `its build needs ${missing.join(', ')} (Debian: apt-get install build-essential python3 pkg-config libssl-dev zlib1g-dev libzstd-dev liblz4-dev libsasl2-dev libcurl4-openssl-dev)` };
  }

  const t0 = performance.now();
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const logFile = join(tmp, 'build.log');
  try {
    // Node's headers, of exactly this Node, from the npm registry's official-binary package.
    const nodePackage = `node-${process.platform}-${process.arch}@${process.versions.node}`;
    log(`confluent: fetching ${nodePackage}'s include/node (the headers node-gyp needs)`);
    execFileSync('npm', ['pack', nodePackage, '--pack-destination', tmp, '--silent'], { cwd: tmp, stdio: ['ignore', 'ignore', 'inherit'] });
    const headers = join(tmp, 'node-headers');
    mkdirSync(headers);
    const tarball = join(tmp, `node-${process.platform}-${process.arch}-${process.versions.node}.tgz`);
    execFileSync('tar', ['xzf', tarball, '-C', headers, '--strip-components=1', 'package/include']);
    rmSync(tarball);

    writeFileSync(
      join(tmp, 'package.json'),
      `${JSON.stringify({ name: 'folio-bench-confluent', private: true, dependencies: { '@confluentinc/kafka-javascript': CONFLUENT_VERSION } }, null, 2)}\n`,
    );
    log(`confluent: building @confluentinc/kafka-javascript@${CONFLUENT_VERSION} from its npm sources (librdkafka too, ~90 s; log in ${logFile})`);
    const build = spawnSync('nice', ['-n', '10', 'npm', 'install', '--no-audit', '--no-fund', '--foreground-scripts'], {
      cwd: tmp,
      encoding: 'utf8',
      env: {
        ...process.env,
        npm_config_nodedir: headers,
        npm_config_build_from_source: 'true',
        CKJS_LINKING: 'dynamic',
      },
      maxBuffer: 256 * 1024 * 1024,
    });
    writeFileSync(logFile, `${build.stdout ?? ''}${build.stderr ?? ''}`);
    if (build.status !== 0) {
      const tail = `${build.stdout ?? ''}${build.stderr ?? ''}`.trim().split('\n').slice(-5).join(' | ');
      throw new Error(`npm install failed (exit ${build.status ?? build.signal}): ${tail}`);
    }
    const librdkafka = probe(tmp);
    writeFileSync(join(tmp, '.complete'), `${stamp}\n`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, '..'), { recursive: true });
    renameSync(tmp, dir);
    const seconds = (performance.now() - t0) / 1000;
    log(`confluent: built in ${seconds.toFixed(0)} s (librdkafka ${librdkafka}) into ${dir}`);
    return { ok: true, dir, librdkafka: probe(dir), built: true, seconds };
  } catch (error) {
    const kept = `${dir}.failed`;
    rmSync(kept, { recursive: true, force: true });
    try {
      renameSync(tmp, kept);
    } catch {
      rmSync(tmp, { recursive: true, force: true });
    }
    return { ok: false, reason: `building it from its npm sources failed: ${(error as Error).message.split('\n')[0]} (the attempt is kept in ${kept})` };
  }
}
