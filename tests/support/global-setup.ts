import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalInfra, type LocalInfra } from '../../infra/local.ts';
import { SHARED_STACKS, Stack, type SharedStackAddress, type SharedStackName } from './stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    infra: Record<string, string>;
    sharedStacks: Record<SharedStackName, SharedStackAddress>;
  }
}

/**
 * Test ports, apart from the development stack's, so `npm test` runs beside a running `npm start`.
 * FOLIO_TEST_PORT_OFFSET shifts them all, so two checkouts on one machine can run their suites at once.
 */
const offset = Number(process.env.FOLIO_TEST_PORT_OFFSET ?? 0) || 0;
export const TEST_PORTS = {
  kafka: 29092 + offset,
  kafkaController: 29093 + offset,
  registry: 28081 + offset,
  postgres: 25432 + offset,
  s3: 28333 + offset,
};

let infra: LocalInfra | undefined;
const shared: Stack[] = [];

/** Starts Kafka, the schema registry, Postgres and S3 once for every e2e test file, and the shared stacks over them. */
export async function setup(project: TestProject): Promise<void> {
  const stateDir = resolve(process.env.FOLIO_TEST_STATE_DIR ?? '.folio/test');
  // Each run starts from what a fresh clone starts from. An earlier run's stacks (their logs and files), topics and
  // databases would otherwise pile up: a few runs left 6 GB of stack folders, a 2.5 GB Postgres and 2,900 partitions,
  // which the broker loaded before it took a request. The last run's logs stay until the next run starts.
  rmSync(join(stateDir, 'stacks'), { recursive: true, force: true });
  infra = await startLocalInfra({
    stateDir,
    fresh: true,
    ports: TEST_PORTS,
    env: process.env,
    log: (line) => process.stderr.write(`[infra] ${line}\n`),
  });
  project.provide('infra', infra.env);
  const names = Object.keys(SHARED_STACKS) as SharedStackName[];
  const stacks = await Promise.all(names.map((name) => Stack.start({ infra: infra!.env, ...SHARED_STACKS[name] })));
  shared.push(...stacks);
  project.provide('sharedStacks', Object.fromEntries(names.map((name, i) => [name, stacks[i]!.address])) as Record<SharedStackName, SharedStackAddress>);
}

export async function teardown(): Promise<void> {
  await Promise.all(shared.map((stack) => stack.stop()));
  await infra?.stop();
}
