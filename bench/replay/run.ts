// bench/replay: how fast `folio replay` folds the log into fresh tables, beside two baselines measured on the same
// events in the same run:
//   (a) the raw rate: a consumer group that reads and decodes every event and does nothing else (the ceiling set by
//       Kafka and the registry codec);
//   (b) the live projector folding the same log from offset 0 into the live tables (what the old in-place rebuild
//       ran: it rewound the projector's group);
//   (c) the replay's fold (`replayReadModels`, the code behind `folio replay`), then its verification against (b).
// The log: BENCH_EVENTS (default 100,000) events of realistic job lifecycles, published straight to Kafka with the
// event-log publisher: JobQueued, JobProcessing, JobSucceeded (one job in ten fails, one in twenty takes a second
// attempt), one job in five with a callback attempted once or twice.
// Run: npm run bench:replay  (starts its own services under .folio/bench; writes its section of docs/benchmarks.md)
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@folio/config';
import {
  DEFAULT_OPTIONS,
  jobError,
  jobFailed,
  jobProcessing,
  jobQueued,
  jobSucceeded,
  newJobId,
  webhookDeliveryAttempted,
  allTopics,
  type JobEvent,
} from '@folio/events';
import { consumeEvents, EventPublisher } from '@folio/event-log';
import { createLogger } from '@folio/logging';
import { replayReadModels } from '@folio/projections';
import { connectEventLog, prepareTopics } from '@folio/service';
import { startLocalInfra } from '../../infra/local.ts';
import { Stack } from '../../tests/support/stack.ts';
import { BENCH_PORTS } from '../ports.ts';
import { runStamp, verdict, writeSection } from '../docs-section.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const TARGET = 20_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const rate = (events: number, seconds: number) => Math.round(events / seconds).toLocaleString('en-US');

/** The events of one job's life, in the order its writers would write them. */
function lifecycle(keyId: string, i: number, at: number): JobEvent[] {
  const jobId = newJobId();
  const now = (ms: number) => new Date(at + ms);
  const webhook = i % 5 === 0 ? `https://hooks.example.com/folio/${i % 97}` : null;
  const events: JobEvent[] = [
    jobQueued(
      {
        job_id: jobId,
        request_id: `bench-${i}`,
        key_id: keyId,
        lane: 'async',
        output: 'text',
        input: { kind: 'markdown', text: `# Report ${i}\n\nA short document, about a paragraph long, as most conversions are.`, ref: null },
        options: DEFAULT_OPTIONS,
        webhook_url: webhook,
        expires_at: new Date(at + 48 * 3600_000).toISOString(),
      },
      now(0),
    ),
    jobProcessing(jobId, 1, 'renderer-bench/1', now(5)),
  ];
  let attempt = 1;
  if (i % 20 === 7) events.push(jobProcessing(jobId, ++attempt, 'renderer-bench/2', now(40)));
  if (i % 10 === 3) events.push(jobFailed(jobId, attempt, 'renderer-bench/1', jobError('parse_failed', 'no article in the page'), now(60)));
  else
    events.push(
      jobSucceeded(
        jobId,
        attempt,
        'renderer-bench/1',
        {
          output: 'text',
          content: `Report ${i}\n\nA short document, about a paragraph long, as most conversions are.`,
          content_ref: null,
          file: null,
          document: { title: `Report ${i}`, url: null, site: null, author: null, date: null, excerpt: null, image: null, word_count: 12 },
        },
        42,
        now(60),
      ),
    );
  if (webhook) {
    const retried = i % 15 === 0;
    events.push(
      webhookDeliveryAttempted(
        jobId,
        retried
          ? { attempt: 1, worker: 'dispatcher-bench/1', url: webhook, status_code: 503, error: 'answered 503', duration_ms: 120, outcome: 'retrying', next_attempt_at: now(2100).toISOString() }
          : { attempt: 1, worker: 'dispatcher-bench/1', url: webhook, status_code: 200, error: null, duration_ms: 35, outcome: 'delivered', next_attempt_at: null },
        now(100),
      ),
    );
    if (retried)
      events.push(
        webhookDeliveryAttempted(
          jobId,
          { attempt: 2, worker: 'dispatcher-bench/1', url: webhook, status_code: 200, error: null, duration_ms: 30, outcome: 'delivered', next_attempt_at: null },
          now(2100),
        ),
      );
  }
  return events;
}

const infra = await startLocalInfra({ stateDir: resolve('.folio/bench'), ports: BENCH_PORTS, s3: false, log: (line) => log(`[infra] ${line}`) });
try {
  const stack = await Stack.start({
    infra: infra.env,
    without: ['api', 'renderer', 'dispatcher', 'projector'],
    env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_TOPIC_PARTITIONS: '12' },
  });
  const config = loadConfig(stack.env);
  const logger = createLogger('bench', 'warn');
  const eventLog = connectEventLog(config, logger, 'folio-bench');
  try {
    await prepareTopics(config, eventLog);
    await stack.createKey('paid');
    const [{ id: keyId }] = (await stack.sql`select id from api_keys`) as unknown as [{ id: string }];

    // The log.
    const publisher = new EventPublisher(eventLog.kafka, eventLog.codec, eventLog.topics);
    await publisher.connect();
    const events: JobEvent[] = [];
    const t0 = Date.now() - 3600_000;
    for (let i = 0; events.length < EVENTS; i++) events.push(...lifecycle(keyId, i, t0 + i * 10));
    events.length = EVENTS;
    const tp = performance.now();
    const chunks = [];
    for (let i = 0; i < events.length; i += 500) chunks.push(publisher.publish(...events.slice(i, i + 500)));
    await Promise.all(chunks);
    await publisher.disconnect();
    log(`published ${EVENTS} events in ${((performance.now() - tp) / 1000).toFixed(1)} s`);

    // (a) read and decode only: the consumer loop every consumer runs, with a handler that stores nothing.
    const groupId = `${config.topicPrefix}folio-bench-decode-${randomUUID()}`;
    let decoded = 0;
    const ta = performance.now();
    let allDone!: () => void;
    const allDecoded = new Promise<void>((done) => (allDone = done));
    const reader = await consumeEvents({
      kafka: eventLog.kafka,
      codec: eventLog.codec,
      groupId,
      topics: allTopics(eventLog.topics),
      sessionTimeoutMs: 30_000,
      logger: createLogger('bench', 'warn'),
      what: 'bench reader',
      maxBatch: 10_000,
      handle: async ({ events }) => {
        decoded += events.length;
        if (decoded >= EVENTS) allDone();
      },
      unapplicable: async () => {},
    });
    await allDecoded;
    const decodeSeconds = (performance.now() - ta) / 1000;
    await reader.stop();
    log(`(a) decode only: ${rate(EVENTS, decodeSeconds)} events/s`);

    // (b) the live projector from offset 0.
    const tb = performance.now();
    const projector = stack.spawn('projector');
    await stack.until(
      async () => {
        const [{ n }] = (await stack.sql`select coalesce(sum(next_offset), 0)::int as n from projection_checkpoints`) as unknown as [{ n: number }];
        return n >= EVENTS;
      },
      600_000,
      'the projector to fold the log',
    );
    const projectorSeconds = (performance.now() - tb) / 1000;
    await projector.stop();
    log(`(b) live projector from offset 0: ${rate(EVENTS, projectorSeconds)} events/s (process start included)`);

    // (c) the replay.
    // The machine is shared: say how busy it was when the replay began.
    const load = loadavg()[0]!.toFixed(1);
    const tc = performance.now();
    const report = await replayReadModels({
      ...eventLog,
      logger,
      sql: stack.sql,
      databaseUrl: stack.env.DATABASE_URL!,
      groupPrefix: config.topicPrefix,
      swap: false,
      waitMs: 1000,
    });
    const replaySeconds = (performance.now() - tc) / 1000;
    const foldRate = report.events / report.foldSeconds;
    log(`(c) replay fold: ${rate(report.events, report.foldSeconds)} events/s; verified ${report.verification.equal ? 'equal' : 'DIFFERENT'}`);
    const [{ jobs }] = (await stack.sql`select count(*)::int as jobs from folio_replay.jobs`) as unknown as [{ jobs: number }];

    writeSection(
      'replay',
      'bench/replay/run.ts',
      `${runStamp()}: ${EVENTS.toLocaleString('en-US')} events (${jobs.toLocaleString('en-US')} jobs' lifecycles) on 3 topics of 12 partitions; load average ${load} when the replay began (2 cores).

| path | seconds | events/s |
|---|---|---|
| (a) read and decode only, no store (baseline: the ceiling) | ${decodeSeconds.toFixed(1)} | ${rate(EVENTS, decodeSeconds)} |
| (b) live projector from offset 0 into the live tables (baseline: the old in-place rebuild's path; process start included) | ${projectorSeconds.toFixed(1)} | ${rate(EVENTS, projectorSeconds)} |
| (c) \`folio replay\`'s fold into fresh tables | ${report.foldSeconds.toFixed(1)} | ${rate(report.events, report.foldSeconds)} |

The whole replay, with building the indexes and verifying ${report.verification.tables.map((t) => `${t.table} (${t.replayRows.toLocaleString('en-US')} rows)`).join(', ')} against (b): ${replaySeconds.toFixed(1)} s; verified ${report.verification.equal ? 'equal' : 'DIFFERENT'}.
Target ≥ ${TARGET.toLocaleString('en-US')} events/s replayed: ${verdict(foldRate >= TARGET)}.`,
    );
    if (!report.verification.equal) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
} finally {
  await infra.stop();
}
