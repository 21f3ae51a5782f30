// `npm start`: the whole Folio stack in the foreground — Kafka, the schema registry and Postgres (each only when the
// environment does not name an external one), then the api, renderer, projector and dispatcher. Prints the URL, a
// development API key and a ready curl, converts a Markdown snippet to show it works, and on Ctrl-C (SIGINT or
// SIGTERM) stops everything: the apps first (they finish in-flight work), then the services. An app that dies is
// started again (supervised-app.ts); only one that keeps dying stops the stack.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@folio/config';
import { connect, migrateDatabase } from '@folio/db';
import { createKey, findKey, keySeal } from '@folio/keys';
import { defaultPorts, startLocalInfra, type LocalInfra } from './local.ts';
import { superviseApp, type SupervisedApp } from './supervised-app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stateDir = path.resolve(process.env.FOLIO_STATE_DIR ?? path.join(root, '.folio'));
const devDir = path.join(stateDir, 'dev');
/**
 * The secret that seals API keys for signing callbacks lives where `npx folio keys create` looks for it by default
 * (`<state>/key-secret`), not in the apps' own state folder, so keys made with the CLI sign the dev stack's callbacks.
 */
const keySecretFile = process.env.FOLIO_KEY_SECRET_FILE ?? path.join(stateDir, 'key-secret');
const logDir = path.join(devDir, 'logs');
const pidDir = path.join(devDir, 'pids');
const APPS = ['projector', 'renderer', 'dispatcher', 'api'] as const;
const say = (line: string) => process.stdout.write(`${line}\n`);

let infra: LocalInfra | undefined;
const apps: SupervisedApp[] = [];
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say('\nstopping Folio…');
    // An app finishes its in-flight work within its own 30 s deadline; one that does not is killed.
    await Promise.all(apps.map((app) => app.stop(35_000)));
    await infra?.stop();
    say('stopped.');
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

function startApp(name: (typeof APPS)[number], env: NodeJS.ProcessEnv): void {
  const entry = path.join(root, `apps/${name}/src/main.ts`);
  const files = { logFile: path.join(logDir, `${name}.log`), pidFile: path.join(pidDir, `${name}.pid`) };
  apps.push(superviseApp({ name, entry, cwd: root, env, ...files }, { say, giveUp: () => void shutdown(1) }));
}

/** A development key, made once and kept (0600) in the state folder; the database holds only its hash. */
async function developmentKey(databaseUrl: string): Promise<string> {
  const file = path.join(devDir, 'api-key');
  const database = connect(databaseUrl, { max: 1 });
  try {
    if (existsSync(file)) {
      const saved = readFileSync(file, 'utf8').trim();
      if ((await findKey(database.db, saved))?.active) return saved;
    }
    const { key } = await createKey(database.db, keySeal({ keySecret: process.env.FOLIO_KEY_SECRET, keySecretFile }), 'paid');
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    return key;
  } finally {
    await database.close();
  }
}

async function waitReady(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the API did not become ready at ${url}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(): Promise<void> {
  mkdirSync(logDir, { recursive: true });
  mkdirSync(pidDir, { recursive: true });
  say('starting Folio (first start fetches and initialises services; later starts take seconds)');
  infra = await startLocalInfra({ stateDir: devDir, ports: defaultPorts, s3: false, log: (line) => say(`  ${line}`) });
  const env: NodeJS.ProcessEnv = { ...process.env, ...infra.env, FOLIO_STATE_DIR: devDir, FOLIO_KEY_SECRET_FILE: keySecretFile };
  const config = loadConfig(env);
  await migrateDatabase(config.databaseUrl);
  const key = await developmentKey(config.databaseUrl);
  for (const name of APPS) startApp(name, env);
  await waitReady(config.publicUrl);

  const snippet = '# Hello from Folio\n\nThis paragraph has **bold** words and a [link](https://example.com).';
  const curl = `curl -s ${config.publicUrl}/v2/convert -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\\n  -d '{"markdown": "# Hello from Folio\\n\\nThis paragraph has **bold** words.", "output": "html"}'`;
  const response = await fetch(`${config.publicUrl}/v2/convert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ markdown: snippet, output: 'text' }),
  });
  const body = (await response.json()) as { content?: string };
  say(`
Folio is running at ${config.publicUrl}
  development API key (paid plan): ${key}
  logs: ${logDir}

Convert a Markdown snippet:
${curl}

A snippet converted to text just now (HTTP ${response.status}):
${(body.content ?? JSON.stringify(body)).replace(/^/gm, '  | ')}

Press Ctrl-C to stop everything.`);
}

main().catch(async (error: Error) => {
  process.stderr.write(`folio: failed to start: ${error.message}\n`);
  await shutdown(1);
});
