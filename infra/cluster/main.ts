// `npm run cluster`: Folio on a cluster of network-namespace hosts on this machine (see cluster.ts), in the
// foreground. Prints where the balancer is, a key and a ready curl, converts a snippet through the balancer to show
// it works, and on Ctrl-C stops everything and removes the namespaces. It starts empty every time.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@folio/db';
import { createKey, keySeal } from '@folio/keys';
import { startCluster, type Cluster } from './cluster.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const stateDir = path.resolve(process.env.FOLIO_STATE_DIR ?? path.join(root, '.folio'), 'cluster');
const say = (line: string) => process.stdout.write(`${line}\n`);

let cluster: Cluster | undefined;
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say('\nstopping the cluster…');
    await cluster?.stop();
    say('stopped; namespaces removed.');
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

async function main(): Promise<void> {
  say('starting Folio as a cluster (3 brokers, 2 APIs behind HAProxy, 2 renderer hosts, projector, dispatcher)');
  cluster = await startCluster({ stateDir, say: (l) => say(`  ${l}`), giveUp: () => void shutdown(1) });
  const database = connect(cluster.env.DATABASE_URL!, { max: 1 });
  const { key } = await createKey(database.db, keySeal({ keySecret: undefined, keySecretFile: cluster.env.FOLIO_KEY_SECRET_FILE! }), 'paid');
  await database.close();
  const response = await fetch(`${cluster.url}/v2/convert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ markdown: '# Hello from a Folio cluster\n\nConverted behind HAProxy.', output: 'text' }),
  });
  const body = (await response.json()) as { content?: string };
  say(`
Folio is running as a cluster; the balancer is at ${cluster.url}
  hosts: ${cluster.hosts.map((h) => `${h.name} ${h.address}`).join(', ')}
  API key (paid plan): ${key}
  logs: ${path.join(stateDir, 'logs')}; a host's shell: ip netns exec folio-<host> bash

  curl -s ${cluster.url}/v2/convert -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\
    -d '{"markdown": "# Hello", "output": "html"}'

A snippet converted through the balancer just now (HTTP ${response.status}):
${(body.content ?? JSON.stringify(body)).replace(/^/gm, '  | ')}

Press Ctrl-C to stop everything.`);
}

main().catch(async (error: Error) => {
  process.stderr.write(`folio cluster: failed to start: ${error.stack ?? error.message}\n`);
  await shutdown(1);
});
