import { defineConfig } from 'vitest/config';

/**
 * Two kinds of tests, told apart by name:
 * - `*.unit.test.ts` beside the code: pure functions, no services.
 * - `tests/**\/*.e2e.test.ts`: the real stack — Kafka, the schema registry,
 *   Postgres, S3 — started once by the project's own infra scripts (tests/support/global-setup.ts).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Unit tests run first (group 0), the end-to-end tests after them (group 1).
          sequence: { groupOrder: 0 },
          include: ['packages/**/src/**/*.unit.test.ts', 'apps/**/src/**/*.unit.test.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          include: ['tests/**/*.e2e.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
    ],
  },
});
