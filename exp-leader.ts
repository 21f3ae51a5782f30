import { Admin, Producer, ProduceAcks, compatibilityPartitioner } from '@platformatic/kafka';
import path from 'node:path';
import { startKafka, newClusterId } from './infra/services/kafka.ts';
import { createNetwork, removeNetwork } from './infra/cluster/network.ts';
import { topology, byRole, voters, bootstrapBrokers, PORTS } from './infra/cluster/topology.ts';
import { createKafka } from './packages/event-log/src/kafka.ts';

const hosts = topology().filter((h) => h.role === 'broker');
createNetwork(hosts);
const clusterId = newClusterId();
const nodes = await Promise.all(hosts.map((h, i) => startKafka({ port: PORTS.kafka, controllerPort: PORTS.kafkaController, address: h.address, netns: h.netns, dataDir: `/tmp/exp/${h.name}-${Date.now()}`, cluster: { nodeId: i + 1, voters: voters(hosts), size: 3, clusterId } })));
const brokers = bootstrapBrokers(hosts).split(',');
const admin = new Admin({ clientId: 'exp', bootstrapBrokers: brokers });
for (const t of ['t', 'u', 'v']) await admin.createTopics({ topics: [t], partitions: 12, replicas: 3, configs: [{ name: 'min.insync.replicas', value: '2' }] });
const logger = { info() {}, warn() {}, error() {}, debug() {}, child() { return logger; } } as any;
const producer = createKafka({ clientId: 'p', brokers, logger }).producer();
const pending = new Map<number, number>();
let n = 0; let maxMs = 0; const slow: string[] = [];
const t0 = Date.now();
let stop = false;
const loop = (async () => {
  while (!stop) {
    const id = n++;
    pending.set(id, Date.now());
    const messages = [0, 1, 2, 3, 4].map((j) => ({ topic: ['t', 'u', 'v'][j % 3]!, key: Buffer.from(`k${id}-${j}`), value: Buffer.from('x') }));
    try {
      await producer.send({ messages });
      const ms = Date.now() - pending.get(id)!; maxMs = Math.max(maxMs, ms); if (ms > 2000) slow.push(`${id}:${ms}`);
    } catch (e) { console.log('send failed', id, Date.now() - pending.get(id)!, (e as Error).message); }
    pending.delete(id);
    await new Promise((r) => setTimeout(r, 20));
  }
})();
const timer = setInterval(() => {}, 1000);
await new Promise((r) => setTimeout(r, 5000));
const md = await admin.metadata({ topics: ['t'] });
const led = new Map<number, number>();
for (const p of md.topics.get('t')!.partitions.values()) led.set(p.leader, (led.get(p.leader) ?? 0) + 1);
const victim = [...led.entries()].sort((a, b) => b[1] - a[1])[0]![0];
console.log('killing node', victim, 'controller', md.controllerId, 'at', Date.now() - t0);
nodes[victim - 1]!.kill();
for (let i = 0; i < 12; i++) {
  await new Promise((r) => setTimeout(r, 5000));
  const oldest = Math.min(...pending.values());
  console.log(`t=${Date.now() - t0} sent=${n} pending=${pending.size} oldest=${pending.size ? Date.now() - oldest : 0} max=${maxMs} slow=${slow.length}`);
}
clearInterval(timer); stop = true;
console.log('slow', slow.slice(0, 20).join(' '));
await Promise.all(nodes.map((x) => x.stop().catch(() => x.kill())));
removeNetwork();
process.exit(0);
