// npm run bench: every benchmark, one after another (never two at once: each wants the machine to itself), each
// writing its own section of docs/benchmarks.md. One that fails does not stop the others; the run exits non-zero
// and names it at the end. BENCH_* variables pass through to every benchmark (BENCH_SECONDS means each one's own
// unit, see docs/benchmarks.md); BENCH_ONLY=render,end-to-end runs those alone, in this order. Each still runs
// alone as npm run bench:<name>.
import { spawnSync } from 'node:child_process';

const BENCHMARKS = ['pipeline', 'start', 'render', 'end-to-end', 'pdf-service', 'backlog', 'http', 'webhooks', 'extraction', 'extraction-reference', 'replay', 'kafka-clients', 'tracing', 'scale'];

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()).filter(Boolean);
const unknown = only?.filter((name) => !BENCHMARKS.includes(name)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`BENCH_ONLY names no benchmark: ${unknown.join(', ')} (there are ${BENCHMARKS.join(', ')})\n`);
  process.exit(2);
}

const results: string[] = [];
let failed = 0;
for (const name of BENCHMARKS.filter((name) => !only || only.includes(name))) {
  const t0 = performance.now();
  process.stderr.write(`\n=== npm run bench:${name}\n`);
  const run = spawnSync('npm', ['run', `bench:${name}`], { stdio: 'inherit' });
  const minutes = ((performance.now() - t0) / 60_000).toFixed(1);
  if (run.status !== 0) failed++;
  results.push(`bench:${name}: ${run.status === 0 ? 'done' : `FAILED (${run.signal ?? `exit ${run.status}`})`} in ${minutes} min`);
}
process.stderr.write(`\n${results.join('\n')}\n`);
process.exitCode = failed > 0 ? 1 : 0;
