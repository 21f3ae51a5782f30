import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

/**
 * The OpenAPI document against the running API, by a fuzzer that reads nothing but the document: schemathesis
 * (pinned; infra/bootstrap.mjs installs it into a virtual environment under the cache) generates requests for every
 * operation of GET /v2/openapi.json — valid ones, which must be accepted, and invalid ones, which must be refused —
 * and runs every check it has on each answer: no 5xx, only declared statuses, headers and bodies, undeclared
 * methods answered 405 with Allow, a request without the key refused, and so on. A fixed seed and a bounded number
 * of examples keep the run the same every time and within a few minutes on two cores.
 *
 * What is configured beyond the defaults, and why, is in tests/openapi-fuzz.schemathesis.toml.
 */
const SCHEMATHESIS_VERSION = '4.32.5';
const CACHE = process.env.FOLIO_CACHE_DIR || path.join(os.homedir(), '.cache', 'folio');
const PYTHON = path.join(CACHE, `schemathesis-${SCHEMATHESIS_VERSION}`, 'bin', 'python');
const CONFIG = path.resolve(import.meta.dirname, 'openapi-fuzz.schemathesis.toml');

const SEED = 20_250_601;
/** Test cases per operation and phase: 15 operations, a few hundred requests each at most. */
const MAX_EXAMPLES = 25;
const RUN_TIMEOUT_MS = 300_000;

interface Run {
  code: number | null;
  output: string;
  seconds: number;
}

function schemathesis(args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-m', 'schemathesis.cli', '--config-file', CONFIG, ...args], {
      env: { ...process.env, ...env, NO_COLOR: '1', PYTHONUNBUFFERED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

describe('the API against its own OpenAPI document, fuzzed', () => {
  let stack: Stack;
  let key: string;
  let reports: string;

  beforeAll(async () => {
    if (!existsSync(PYTHON)) throw new Error(`schemathesis ${SCHEMATHESIS_VERSION} is not installed at ${PYTHON}: run node infra/bootstrap.mjs`);
    // 127.0.0.1 stands in for the public web, as in the other e2e tests: the receiver address webhook_url is drawn
    // from, and the stack's own links, which the fuzzer reuses as addresses to fetch (its file_url, status_url).
    stack = Stack.shared('loopback-public');
    // A paid key: its budgets (times the stack's FOLIO_RATE_LIMIT_SCALE of 100) are far above what the run sends, so
    // no answer is a 429 the run did not ask for, and a paid key has no monthly quota to run out of.
    key = await stack.createKey('paid');
    reports = mkdtempSync(path.join(os.tmpdir(), 'folio-fuzz-'));
  });
  afterAll(async () => {
    await stack?.stop();
    if (reports) rmSync(reports, { recursive: true, force: true });
  });

  it('finds no disagreement between the document and the API', async () => {
    const run = await schemathesis(
      [
        'run',
        `${stack.url}/v2/openapi.json`,
        '--checks', 'all',
        '--seed', String(SEED),
        '--max-examples', String(MAX_EXAMPLES),
        // One worker: with two threads, CPython 3.11.7 (this machine's) can fail inside hypothesis with "AST constructor
        // recursion depth mismatch" (a thread-safety bug of CPython's ast module, fixed in later releases), which
        // schemathesis reports as a flaky runtime error of whatever operation it was drawing for.
        '--workers', '1',
        '--no-color',
        '--report', 'ndjson',
        '--report-ndjson-path', path.join(reports, 'events.ndjson'),
      ],
      { FOLIO_FUZZ_KEY: key },
    );
    const requests = countRequests(path.join(reports, 'events.ndjson'));
    process.stderr.write(`schemathesis ${SCHEMATHESIS_VERSION}: exit ${run.code} after ${run.seconds.toFixed(1)} s, ${requests} requests\n`);
    if (run.code !== 0) process.stderr.write(run.output);
    expect(run.code, run.output.slice(-20_000)).toBe(0);
    expect(requests).toBeGreaterThan(100);
  });
});

/** Requests the run sent, from its ndjson events (one interaction per request). */
function countRequests(file: string): number {
  if (!existsSync(file)) return 0;
  return (readFileSync(file, 'utf8').match(/"request":\s*\{/g) ?? []).length;
}
