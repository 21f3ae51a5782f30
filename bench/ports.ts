import type { LocalPorts } from '../infra/local.ts';

/**
 * The ports of the benchmarks' own infrastructure (under .folio/bench): apart from the dev stack's (1xxxx) and the
 * tests' (2xxxx), and below Linux's ephemeral range (32768 and up). A listener inside that range can find its port
 * taken by some client's outgoing connection: a benchmark opens thousands of them, and Kafka failed to bind 39092
 * that way between two benchmarks of one `npm run bench`.
 */
export const BENCH_PORTS: LocalPorts = { kafka: 30092, kafkaController: 30093, registry: 30081, postgres: 30432, s3: 30333 };

/**
 * bench/kafka-clients' own Kafka (under .folio/bench-clients): apart from the other benchmarks' 30xxx, so that it can
 * run beside a checkout whose benchmarks hold those (it starts Kafka only).
 */
export const CLIENTS_BENCH_PORTS: LocalPorts = { kafka: 31092, kafkaController: 31093, registry: 31081, postgres: 31432, s3: 31333 };
