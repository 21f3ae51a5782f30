// Where infra/bootstrap.mjs puts the service binaries, and the Java runtime used to run them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function cacheDir(): string {
  return process.env.FOLIO_CACHE_DIR || path.join(os.homedir(), '.cache', 'folio');
}

/** `java` on PATH (Java 17+), or FOLIO_JAVA. JAVA_HOME is deliberately ignored. */
export function javaCommand(): string {
  return process.env.FOLIO_JAVA || 'java';
}

type Artifact = 'kafka' | 's3' | 'registry';

/** The cache directory of a service's binaries; throws a helpful error if bootstrap has not fetched them. */
export function artifactDir(service: Artifact): string {
  const dir = path.join(cacheDir(), service);
  if (!fs.existsSync(path.join(dir, '.complete'))) {
    throw new Error(`${service} binaries are missing in ${dir}: run \`node infra/bootstrap.mjs\` first`);
  }
  return dir;
}

/** Classpath (a `lib/*` wildcard) of the Kafka broker. */
export function kafkaClasspath(): string {
  return path.join(artifactDir('kafka'), 'lib', '*');
}

/** The S3Proxy jar-with-dependencies. */
export function s3proxyJar(): string {
  const lib = path.join(artifactDir('s3'), 'lib');
  const jar = fs.readdirSync(lib).find((f) => f.startsWith('s3proxy') && f.endsWith('.jar'));
  if (!jar) throw new Error(`no s3proxy jar in ${lib}: delete ${path.dirname(lib)} and run infra/bootstrap.mjs`);
  return path.join(lib, jar);
}

/** The Apicurio Registry runner jar (Quarkus: quarkus-run.jar, or `*-runner.jar` for the legacy-jar layout). */
export function registryJar(): string {
  const app = path.join(artifactDir('registry'), 'app');
  const queue: Array<[string, number]> = [[app, 0]];
  while (queue.length) {
    const [dir, depth] = queue.shift()!;
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    const jar = entries.find((e) => e.isFile() && (e.name === 'quarkus-run.jar' || e.name.endsWith('-runner.jar')));
    if (jar) return path.join(dir, jar.name);
    if (depth < 3) {
      for (const e of entries) if (e.isDirectory() && e.name !== 'lib') queue.push([path.join(dir, e.name), depth + 1]);
    }
  }
  throw new Error(`no quarkus-run.jar / *-runner.jar under ${app}: delete ${path.dirname(app)} and run infra/bootstrap.mjs`);
}
