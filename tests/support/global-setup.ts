import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalInfra, type LocalInfra } from '../../infra/local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    infra: Record<string, string>;
  }
}

/** Test ports, apart from the development stack's, so `npm test` runs beside a running `npm start`. */
export const TEST_PORTS = { kafka: 29092, kafkaController: 29093, registry: 28081, postgres: 25432, s3: 28333 };

let infra: LocalInfra | undefined;

/** Starts Kafka, the schema registry, Postgres and S3 once for every e2e test file. */
export async function setup(project: TestProject): Promise<void> {
  infra = await startLocalInfra({
    stateDir: resolve(process.env.FOLIO_TEST_STATE_DIR ?? '.folio/test'),
    ports: TEST_PORTS,
    env: process.env,
    log: (line) => process.stderr.write(`[infra] ${line}\n`),
  });
  project.provide('infra', infra.env);
}

export async function teardown(): Promise<void> {
  await infra?.stop();
}
