import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Three kinds of tests, told apart by name:
 * - `*.unit.test.ts` beside the code: pure functions, no services.
 * - `*.browser.test.ts` beside the code: one package against a real Chromium.
 * - `tests/**\/*.e2e.test.ts`: the real stack — Kafka, the schema registry,
 *   Postgres, S3 — started once by the project's own infra scripts (tests/support/global-setup.ts).
 */
/**
 * Workspace packages that are also published (@folio/sdk) are tested from their sources, not a built dist/: their
 * "@folio/source" export condition, which tsconfig.base.json and the `folio` bin use too. (Inline projects do not
 * inherit the root config, so each project names it.)
 */
const fromSources = {
  // Vitest's own defaults otherwise: Vite's server conditions without "module".
  ssr: { resolve: { conditions: ['@folio/source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
};

export default defineConfig({
  test: {
    projects: [
      {
        ...fromSources,
        test: {
          name: 'unit',
          // Unit tests run first (group 0), the end-to-end tests after them (group 1).
          sequence: { groupOrder: 0 },
          include: ['packages/**/src/**/*.unit.test.ts', 'apps/**/src/**/*.unit.test.ts', 'infra/**/*.unit.test.ts'],
          // Some unit tests start worker threads or convert deep inputs: on two busy cores that can pass 5 s.
          testTimeout: 30_000,
          // Vitest's default on two cores is one worker (CPUs - 1), and a fresh module graph for each of the ~100
          // files: 147 s here. Unit tests are pure (no vi.mock, no stubbed globals or env), so two workers that keep
          // their loaded modules between files run them in 47 s.
          maxWorkers: 2,
          isolate: false,
        },
      },
      {
        ...fromSources,
        test: {
          name: 'browser',
          // Tests of one package against a real Chromium (no Kafka or Postgres needed).
          sequence: { groupOrder: 1 },
          include: ['packages/**/src/**/*.browser.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two files at a time: a browser test waits on Chromium's processes much of its time (27 s here against 45 s
          // with one worker).
          maxWorkers: 2,
        },
      },
      {
        ...fromSources,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 2 },
          include: ['tests/**/*.e2e.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: 2,
          // A file's stack runs in child processes and each file stops what it started, so files can share a
          // worker's loaded modules instead of importing the stack's packages again (~2–3 s of CPU a file).
          isolate: false,
        },
      },
    ],
  },
});
