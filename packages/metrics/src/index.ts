export { callbackMetrics, chromiumMetrics, conversionMetrics, httpMetrics, jobMetrics, logMetrics, poolMetrics } from './catalogue.ts';
export { beforeScrape, collectProcessMetrics, exposition, serveMetrics, type MetricsServer } from './exposition.ts';
export { observeEndedJobs, type EndedJob } from './jobs.ts';
