import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.ts';

describe('configuration', () => {
  it('has the interface’s defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:8080',
      syncTimeoutMs: 27_000,
      jobTtlSeconds: 172_800,
      fileTtlSeconds: 172_800,
      webhookRetryDelaysMs: [2000, 10_000, 60_000],
      webhookTimeoutMs: 10_000,
      allowPrivateHosts: [],
    });
    expect(config.storage.kind).toBe('local');
  });

  it('reads every knob it is given', () => {
    const config = loadConfig({
      FOLIO_PORT: '9000',
      FOLIO_PUBLIC_URL: 'https://folio.example/',
      FOLIO_SYNC_TIMEOUT: '1.5',
      FOLIO_WEBHOOK_RETRY_DELAYS: '0.1, 0.2,1',
      FOLIO_ALLOW_PRIVATE_HOSTS: '127.0.0.1,canary.test',
      KAFKA_BROKERS: 'a:1,b:2',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_BUCKET: 'b',
    });
    expect(config.publicUrl).toBe('https://folio.example');
    expect(config.syncTimeoutMs).toBe(1500);
    expect(config.webhookRetryDelaysMs).toEqual([100, 200, 1000]);
    expect(config.allowPrivateHosts).toEqual(['127.0.0.1', 'canary.test']);
    expect(config.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(config.storage).toMatchObject({ kind: 's3', bucket: 'b', region: 'us-east-1' });
  });

  it('names every problem at once', () => {
    try {
      loadConfig({ FOLIO_PORT: 'eighty', FOLIO_SYNC_TIMEOUT: '-1', S3_BUCKET: 'only-bucket' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(3);
    }
  });

  it('serves metrics where FOLIO_METRICS_PORT says: a port, off, or (unset) the app\'s default; on FOLIO_HOST unless told', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: null, metricsHost: '127.0.0.1' });
    expect(loadConfig({ FOLIO_METRICS_PORT: '9100', FOLIO_HOST: '0.0.0.0' })).toMatchObject({ metricsPort: 9100, metricsHost: '0.0.0.0' });
    expect(loadConfig({ FOLIO_METRICS_PORT: 'OFF', FOLIO_METRICS_HOST: '::1' })).toMatchObject({ metricsPort: 'off', metricsHost: '::1' });
    for (const bad of ['ninety', '70000', '-1']) expect(() => loadConfig({ FOLIO_METRICS_PORT: bad })).toThrow(/FOLIO_METRICS_PORT/);
  });

  it('takes browser origins for CORS as origins only: none by default, * for any', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ FOLIO_CORS_ORIGINS: 'https://app.example.com, http://127.0.0.1:5173/' }).corsOrigins).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    expect(loadConfig({ FOLIO_CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    for (const bad of ['app.example.com', 'https://app.example.com/path', 'ftp://files.example.com']) {
      expect(() => loadConfig({ FOLIO_CORS_ORIGINS: bad })).toThrow(ConfigError);
    }
  });

  it('keeps the log forever unless told a number of days, never shorter than a job stays readable', () => {
    expect(loadConfig({}).logRetentionMs).toBe(-1);
    expect(loadConfig({ FOLIO_LOG_RETENTION_DAYS: 'forever' }).logRetentionMs).toBe(-1);
    expect(loadConfig({ FOLIO_LOG_RETENTION_DAYS: '400' }).logRetentionMs).toBe(400 * 86_400_000);
    expect(() => loadConfig({ FOLIO_LOG_RETENTION_DAYS: '1' })).toThrow(/at least as long as a job is readable/);
    expect(loadConfig({ FOLIO_LOG_RETENTION_DAYS: '1', FOLIO_JOB_TTL: '3600' }).logRetentionMs).toBe(86_400_000);
    expect(() => loadConfig({ FOLIO_LOG_RETENTION_DAYS: 'a year' })).toThrow(/whole number of days/);
  });

  it('leaves the topics\' replication to the cluster unless told, and reads the unsafe switch as a flag', () => {
    expect(loadConfig({})).toMatchObject({ topicReplication: null, topicMinInsync: null, allowUnsafeTopics: false });
    expect(loadConfig({ FOLIO_TOPIC_REPLICATION: '3', FOLIO_TOPIC_MIN_INSYNC: '2', FOLIO_ALLOW_UNSAFE_TOPICS: 'true' })).toMatchObject({
      topicReplication: 3,
      topicMinInsync: 2,
      allowUnsafeTopics: true,
    });
    expect(loadConfig({ FOLIO_ALLOW_UNSAFE_TOPICS: '0' }).allowUnsafeTopics).toBe(false);
    expect(() => loadConfig({ FOLIO_ALLOW_UNSAFE_TOPICS: 'maybe' })).toThrow(/neither true nor false/);
    expect(() => loadConfig({ FOLIO_TOPIC_REPLICATION: '0' })).toThrow(/outside 1\.\.32/);
  });
});
