// Podman as `npm run image` and its smoke test call it: Debian's podman 4.3 as root, with a containers.conf of our own
// (kept in the cache) that every call names in CONTAINERS_CONF. infra/bootstrap.mjs --image installs podman and runc.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../services/index.ts';

/** The image `npm run image` builds and the smoke test runs. */
export const IMAGE = 'localhost/folio:latest';

/**
 * The settings podman needs here, in place of the system's containers.conf:
 * - no default ulimits: podman sets nofile/nproc limits on every container, and setrlimit is refused in this kind of
 *   sandbox ("error setting rlimit type 7: operation not permitted"); the container keeps the limits it inherits;
 * - runc: crun, Debian's first choice, fails on hybrid cgroups ("cgroups in hybrid mode not supported").
 */
const CONTAINERS_CONF = `# Written by infra/image/podman.ts (npm run image); used through CONTAINERS_CONF, never by podman otherwise.
[containers]
default_ulimits = []

[engine]
runtime = "runc"
`;

/** The environment of every podman call: ours, with CONTAINERS_CONF naming the file above (written when it differs). */
export function podmanEnv(): NodeJS.ProcessEnv {
  const file = path.join(cacheDir(), 'image', 'containers.conf');
  let current = '';
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    // not written yet
  }
  if (current !== CONTAINERS_CONF) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, CONTAINERS_CONF);
  }
  return { ...process.env, CONTAINERS_CONF: file };
}

/** Runs podman to completion and returns its stdout; throws with its stderr when it fails. */
export function podman(args: string[]): string {
  const r = spawnSync('podman', args, { env: podmanEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`podman: ${r.error.message} (run it through npm run image, which installs it)`);
  if (r.status !== 0) throw new Error(`\`podman ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}): ${r.stderr.trim()}`);
  return r.stdout;
}

/** Starts podman with the given stdio (a long build, a container in the foreground). */
export function spawnPodman(args: string[], stdio: SpawnOptions['stdio']): ChildProcess {
  return spawn('podman', args, { env: podmanEnv(), stdio });
}

/** Waits for a podman started with spawnPodman; throws unless it exits 0. */
export function finished(child: ChildProcess, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('error', (err) => reject(new Error(`${what}: ${err.message}`)));
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code ?? signal})`))));
  });
}

/** The image's id, or undefined when there is no such image. */
export function imageId(name: string): string | undefined {
  const r = spawnSync('podman', ['image', 'inspect', '--format', '{{.Id}}', name], { env: podmanEnv(), encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}
