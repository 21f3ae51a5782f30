import { lookup } from 'node:dns/promises';

/** A host's addresses, as `dns.lookup` with `all` gives them. */
export type Resolve = (name: string) => Promise<Array<{ address: string }>>;

/** How long a host's answer is used again. */
export const ANSWER_TTL_MS = 30_000;
/** Hosts kept at most; the oldest answer goes first. */
const MAX_HOSTS = 10_000;
/** Errors that are an answer (the name does not exist, or is not a name): kept. Others (a resolver that timed out) are not. */
const ANSWERS = new Set(['ENOTFOUND', 'ENODATA', 'EINVAL']);

const systemResolve: Resolve = (name) => lookup(name, { all: true, verbatim: true });

/**
 * The addresses of the hosts a request names, looked up once for all the requests of the next 30 s that name them.
 * The API checks every address it will have fetched before it makes a job (invariant 7), and without this it asked the
 * system's resolver on every request: a caller sending a thousand pages of one site made a thousand lookups, and a
 * resolver that drops some of a burst of queries held each dropped one's request 5 s (glibc's retry; measured here:
 * 5 of 150 lookups in a row, each of the fuzzer's requests that met one). The check is made again on every connection
 * the fetch makes (`guardedAgent`), so an answer used for 30 s can delay a refusal to the fetch, never let a private
 * address through. Concurrent lookups of one host share one query.
 */
export class HostAnswers {
  private readonly kept = new Map<string, { at: number; answer: Promise<Array<{ address: string }>> }>();
  private readonly resolve: Resolve;
  private readonly now: () => number;

  constructor(resolve: Resolve = systemResolve, now: () => number = Date.now) {
    this.resolve = resolve;
    this.now = now;
  }

  addresses(host: string): Promise<Array<{ address: string }>> {
    const name = host.toLowerCase();
    const kept = this.kept.get(name);
    if (kept && this.now() - kept.at < ANSWER_TTL_MS) return kept.answer;
    const answer = this.resolve(name);
    this.kept.delete(name);
    this.kept.set(name, { at: this.now(), answer });
    if (this.kept.size > MAX_HOSTS) this.kept.delete(this.kept.keys().next().value!);
    answer.catch((error: NodeJS.ErrnoException) => {
      if (!ANSWERS.has(error?.code ?? '') && this.kept.get(name)?.answer === answer) this.kept.delete(name);
    });
    return answer;
  }
}
