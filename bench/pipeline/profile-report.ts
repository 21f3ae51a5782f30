// Summarises .cpuprofile files: self time by package and by function.
//   node bench/pipeline/profile-report.ts <dir> [functions shown] [last ms of each profile counted]
// The last argument leaves out a process's start (module loading): count only the drain, the end of its life.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const dir = process.argv[2] ?? '.folio/profiles';
const top = Number(process.argv[3] ?? 25);
const windowMs = Number(process.argv[4] ?? Infinity);
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const p = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const dt = new Map<number, number>();
  const from = p.endTime - windowMs * 1000;
  let at = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    if (at >= from) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const byPkg = new Map<string, number>();
  const byFn = new Map<string, number>();
  let total = 0;
  for (const n of p.nodes) {
    const us = dt.get(n.id) ?? 0;
    if (n.callFrame.functionName === '(idle)') continue;
    total += us;
    const url: string = n.callFrame.url;
    const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
    const pkg = m ? m[1] : url.includes('/packages/') ? 'folio:' + /packages\/([^/]+)/.exec(url)![1] : url.includes('/apps/') ? 'folio:' + /apps\/([^/]+)/.exec(url)![1] : url.startsWith('node:') ? 'node:' + url.slice(5).split('/')[0] : n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : url ? 'other' : '(native)';
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
    const fn = `${n.callFrame.functionName || '(anon)'} ${url.replace(/.*node_modules\//, '').replace(/.*\/work\/[^/]+\//, '')}:${n.callFrame.lineNumber}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  }
  const fmt = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, us]) => `  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${n}`).join('\n');
  console.log(`\n=== ${file}: ${(total / 1000).toFixed(0)} ms busy\n${fmt(byPkg, 20)}\n--- functions\n${fmt(byFn, top)}`);
}
