// Profiles every app process over an async drain (node --cpu-prof, one .cpuprofile a thread, written when the apps
// stop) for a look at where a job's CPU goes by function; bench/pipeline/profile-report.ts summarises them.
// Run: node bench/pipeline/profile-drain.ts [jobs]   (PROFILE_DIR, default .folio/profiles)
import { BENCH_PORTS } from '../ports.ts';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '@folio/config';
import { EventPublisher } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { connectEventLog } from '@folio/service';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { asyncTextJobs, sampleArticle } from './markdown.ts';

const JOBS = Number(process.argv[2] ?? 3000);
const dir = resolve(process.env.PROFILE_DIR ?? '.folio/profiles');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const infra = await startLocalInfra({ stateDir: resolve('.folio/bench'), ports: BENCH_PORTS, s3: false, log: () => {} });
try {
  const markdown = sampleArticle(1500);
  const s = await Stack.start({
    infra: infra.env,
    env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_TOPIC_PARTITIONS: '12', NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` },
  });
  await s.createKey('paid');
  const [{ id: keyId }] = (await s.sql`select id from api_keys`) as unknown as [{ id: string }];
  const log = connectEventLog(loadConfig(s.env), createLogger('bench', 'warn'), 'folio-bench');
  const publisher = new EventPublisher(log.kafka, log.codec, log.topics);
  await publisher.connect();
  const events = asyncTextJobs(keyId, markdown, JOBS);
  const t0 = performance.now();
  for (let i = 0; i < events.length; i += 100) await publisher.publish(...events.slice(i, i + 100));
  await publisher.disconnect();
  await s.until(async () => {
    const [{ done }] = (await s.sql`select count(*)::int as done from jobs where status = 'succeeded'`) as unknown as [{ done: number }];
    return done >= JOBS;
  }, 600_000, 'all jobs to finish');
  process.stderr.write(`drained ${JOBS} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  await s.stop();
} finally {
  await infra.stop();
}
