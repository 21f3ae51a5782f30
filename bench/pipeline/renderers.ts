// One renderer against two on the same machine, drains alternating, so that the hour weighs on both alike: each
// drain a stack of its own, warmed with async calls through the API, then BENCH_ASYNC_JOBS markdown→text JobQueued
// events written straight to the async lane. Prints, per drain, jobs/s (the log's first to last success), CPU a job
// by process, and the renderers' CPU a job by thread name (conversion threads, main thread, V8's helpers).
// Run: node bench/pipeline/renderers.ts   (BENCH_ORDER=1,2,1,2 the renderers of each drain in turn)
import { BENCH_PORTS } from '../ports.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '@folio/config';
import { EventPublisher } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { connectEventLog } from '@folio/service';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { sampleArticle } from './markdown.ts';
import { drainJobs, warmRenderers } from './drain.ts';
import { cpuSnapshot, cpuSpent, cpuTable } from '../process-cpu.ts';

const JOBS = Number(process.env.BENCH_ASYNC_JOBS ?? 2400);
const WARM_JOBS = 400;
const ORDER = (process.env.BENCH_ORDER ?? '1,2,1,2').split(',').map(Number);
const TICK_MS = 10; // USER_HZ
const log = (line: string) => process.stderr.write(`${line}\n`);

/** CPU milliseconds of the renderers' threads, by thread name (numbers dropped: "WorkerThread", "V8Worker"). */
function rendererThreads(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!/apps\/renderer\/src\/main\.ts/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '');
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS);
      }
    } catch {
      // gone between the listing and the read
    }
  }
  return byName;
}

const infra = await startLocalInfra({ stateDir: resolve('.folio/bench'), ports: BENCH_PORTS, s3: false, log: () => {} });
const markdown = sampleArticle(1500);
try {
  for (const renderers of ORDER) {
    const stack = await Stack.start({ infra: infra.env, renderers, env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_TOPIC_PARTITIONS: '12' } });
    try {
      const key = await stack.createKey('paid');
      const [{ id: keyId }] = (await stack.sql`select id from api_keys`) as unknown as [{ id: string }];
      await warmRenderers(stack, key, markdown, renderers, WARM_JOBS, 32);

      const eventLog = connectEventLog(loadConfig(stack.env), createLogger('bench', 'warn'), 'folio-bench');
      const publisher = new EventPublisher(eventLog.kafka, eventLog.codec, eventLog.topics);
      await publisher.connect();
      const cpuBefore = cpuSnapshot();
      const threadsBefore = rendererThreads();
      const seconds = await drainJobs(stack, publisher, keyId, markdown, JOBS);
      const cpu = cpuSpent(cpuBefore, cpuSnapshot());
      const threads = [...rendererThreads()].map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const);
      await publisher.disconnect();
      log(`\n${renderers} renderer${renderers > 1 ? 's' : ''}: ${((JOBS - 1) / seconds).toFixed(1)} jobs/s`);
      log(cpuTable(cpu, JOBS, 'job'));
      log('Renderers by thread, CPU a job:');
      for (const [name, ms] of threads.filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1])) log(`  ${name}: ${(ms / JOBS).toFixed(2)} ms`);
    } finally {
      await stack.stop();
    }
  }
} finally {
  await infra.stop();
}
