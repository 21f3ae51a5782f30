import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from './support/supervisor.ts';

describe('npm start when an app is killed', () => {
  let folio: Supervisor;

  beforeAll(async () => {
    folio = await Supervisor.start();
  });
  afterAll(() => folio?.stop());

  /** Waits for an accepted job to be final; 404 too while the projector is away. */
  const finalJob = (id: string) =>
    folio.until(async () => {
      const { status, body } = await folio.request('GET', `/v2/jobs/${id}`);
      return status === 200 && (body.status === 'succeeded' || body.status === 'failed') && body;
    }, 60_000, `job ${id} to finish`);

  it.each(['renderer', 'projector'] as const)('brings the %s back after kill -9, and the jobs accepted meanwhile succeed', async (app) => {
    const victim = folio.pidOf(app)!;
    expect(victim).toBeGreaterThan(0);
    process.kill(victim, 'SIGKILL');

    const texts = [1, 2, 3].map((i) => `# ${app} killed, async job ${i}`);
    const accepted = await Promise.all(texts.map((markdown) => folio.request('POST', '/v2/convert', { markdown, output: 'text', async: true })));
    expect(accepted.map((r) => r.status)).toEqual([202, 202, 202]);
    const sync = [1, 2].map((i) => folio.request('POST', '/v2/convert', { markdown: `# ${app} killed, sync job ${i}`, output: 'text' }));

    await folio.successorOf(app, victim);
    expect(folio.output).toContain(`[${app}] exited unexpectedly (SIGKILL); restarting in 1 s (crash 1 of 5 in 2 min)`);
    expect(folio.logOf(app)).toContain('"service":"supervisor"');

    const jobs = await Promise.all(accepted.map((r) => finalJob(r.body.job_id)));
    expect(jobs.map((job) => [job.status, job.result?.content])).toEqual(texts.map((t) => ['succeeded', t.slice(2)]));
    const answers = await Promise.all(sync);
    expect(answers.map((r) => [r.status, r.body.content])).toEqual([1, 2].map((i) => [200, `${app} killed, sync job ${i}`]));
  });

  it('stops everything on SIGTERM, an app waiting to be restarted included', async () => {
    process.kill(folio.pidOf('dispatcher')!, 'SIGKILL');
    await folio.until(() => folio.output.includes('[dispatcher] exited unexpectedly'), 10_000, 'the dispatcher to be seen dead');

    expect(await folio.stop()).toEqual({ code: 0, signal: null });
    expect(folio.output).toContain('stopped.');
    expect(folio.processes()).toEqual([]);
    expect((['api', 'renderer', 'projector', 'dispatcher'] as const).map((app) => folio.pidOf(app))).toEqual([undefined, undefined, undefined, undefined]);
  });
});
