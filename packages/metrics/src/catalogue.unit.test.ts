import { describe, expect, it } from 'vitest';
import { register } from 'prom-client';
import { callbackMetrics, chromiumMetrics, conversionMetrics, httpMetrics, jobMetrics, logMetrics, poolMetrics } from './catalogue.ts';

// Every group made, as the apps together make them.
for (const group of [httpMetrics, jobMetrics, conversionMetrics, chromiumMetrics, callbackMetrics, logMetrics, poolMetrics]) group();
const all = await register.getMetricsAsJSON();

/** Label names whose values are unbounded: each value a series of its own. */
const UNBOUNDED = /(^|_)(id|key|url|path|message|email|ip)$/;

describe("Folio's metrics follow Prometheus' naming rules", () => {
  it('defines them all, once each, with the labels they are made with', () => {
    expect((register.getSingleMetric('folio_consumer_lag') as unknown as { labelNames: string[] }).labelNames).toEqual(['group', 'topic', 'partition']);
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(new Set(all.map((m) => m.name)).size).toBe(all.length);
  });

  it.each(all.map((m) => [m.name, m] as const))('%s: folio_ prefix, snake case, suffix by type and unit, help, bounded labels', (name, metric) => {
    expect(name).toMatch(/^folio_[a-z][a-z0-9_]*[a-z0-9]$/);
    expect(name).not.toMatch(/__/);
    if (String(metric.type) === 'counter') expect(name).toMatch(/_total$/);
    else expect(name).not.toMatch(/_total$/);
    if (String(metric.type) === 'histogram') expect(name).toMatch(/_(seconds|bytes)$/);
    // Base units only: seconds and bytes, never milliseconds or kilobytes.
    expect(name).not.toMatch(/_(ms|milliseconds|minutes|kb|mb|kilobytes|megabytes)(_|$)/);
    expect(metric.help.length).toBeGreaterThan(20);
    const labels = (register.getSingleMetric(name) as unknown as { labelNames: string[] }).labelNames;
    expect(Array.isArray(labels)).toBe(true);
    for (const label of labels) {
      expect(label).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(label, `${name}{${label}} takes unbounded values`).not.toMatch(UNBOUNDED);
    }
  });
});
