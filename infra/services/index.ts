// Local infrastructure services for Folio (dev and tests). Binaries come from infra/bootstrap.mjs.
export {
  freePort,
  isPortFree,
  tailFile,
  waitForPortFree,
  type RunningService,
} from './process.ts';
export { cacheDir, javaCommand } from './cache.ts';
export { probeKafka, startKafka, type KafkaOptions, type KafkaService } from './kafka.ts';
export {
  createDatabase,
  probePostgres,
  startPostgres,
  withDatabase,
  type PostgresOptions,
  type PostgresService,
} from './postgres.ts';
export { jdbcFromPostgresUrl, probeRegistry, startRegistry, type RegistryOptions, type RegistryService } from './registry.ts';
export { s3ClientFor, startS3, type S3Connection, type S3Options, type S3Service } from './s3.ts';
