import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { ConversionError, type ConversionErrorCode } from './errors.ts';
import { prepare, type Conversion, type ConversionRequest, type Printable } from './convert.ts';

export interface PoolOptions {
  /** Worker threads (default: the machine's cores). */
  size?: number;
  /**
   * Worker threads beyond `size` that only urgent requests use (default none): a renderer keeps one for the jobs a
   * caller is waiting on, so that requests nobody waits on, however slow, never make an urgent one wait for a thread.
   * Each is started the first time the shared workers are all taken (an urgent request could then find no other),
   * and kept: a renderer that is never that busy never needs it, and a start would pay for its modules (~0.8 s of
   * CPU) every time.
   */
  urgentWorkers?: number;
  /** FOLIO_ALLOW_PRIVATE_HOSTS, for each worker's page fetcher. */
  allowPrivateHosts: string[];
  /** How long a worker may spend on one message before it is replaced (default `CONVERSION_BUDGET_MS`). */
  budgetMs?: number;
}

/**
 * The time a conversion may take in a worker. A page built to be slow (tens of thousands of elements side by side,
 * where a DOM step is quadratic) would otherwise hold its worker for hours; past the budget the worker is replaced and
 * the job fails with render_timeout, as a sync call past its ceiling does. A minute: an honest conversion's network
 * alone may take 25 s (the page's fetch budget, 15 s, then its images', 10 s, for a docx), and a large page's
 * extraction some seconds more on a slow hour.
 */
export const CONVERSION_BUDGET_MS = 60_000;

/** A worker thread loads the conversion packages again: the module-scopes hook first, as an app's entry does. */
const HOOK_URL = JSON.stringify(import.meta.resolve('@folio/module-scopes'));
const WORKER_URL = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
const WORKER_SCRIPT = `import(${HOOK_URL}).then(() => import(${WORKER_URL}))`;

/** A worker that overran its budget, as its chunk's callers see it before the chunk is settled. */
class BudgetOverrun extends Error {}

/**
 * A larger young generation than V8's default for a worker: jsdom allocates a great many short-lived objects, and with
 * the default a fifth of a worker's time went to scavenges; with 64 MB url→pdf's preparation ran 6–20 % faster.
 */
const YOUNG_GENERATION_MB = 64;

/** What a worker sends back for one request of a chunk, with how long the worker spent on it. */
/**
 * When a conversion ran, in milliseconds since the epoch (`performance.timeOrigin + performance.now()`, the same clock in
 * every thread): its start, the end of its page's fetch (null without one) and its end. Traces make spans of it.
 */
export interface Timeline {
  start: number;
  fetched: number | null;
  end: number;
}

export type WorkerReply = ({ ok: true; result: Conversion | Printable } | { ok: false; error: { name: string; code?: string; message: string; retryable?: boolean } }) & {
  ms: number;
  timeline: Timeline;
};
/** A worker's message: the replies to a chunk, in its order. */
export type ChunkReply = { id: number; replies: WorkerReply[] };

/** How one request of a chunk ended, and how long its worker spent on it (0 when it never reached one). */
export type Prepared = ({ ok: true; result: Conversion | Printable } | { ok: false; error: unknown }) & { ms: number; timeline: Timeline };

/** Now on the clock a Timeline uses. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Whether the worker has loaded its modules: only then is it handed a request (see `reserve`). */
  loaded: boolean;
  busy: { id: number; urgent: boolean; resolve: (r: Prepared[]) => void; reject: (e: unknown) => void; budget?: NodeJS.Timeout } | null;
}

/**
 * Runs `prepare` (fetching, jsdom parsing, extraction, sanitising, markdown, docx) in worker threads, so that the
 * renderer's event loop stays free for Kafka heartbeats, the browser and other jobs: a 1,000,000-character input
 * keeps a thread busy for seconds. A worker that dies fails only the chunk it had, and is replaced.
 *
 * Work goes to a worker a chunk at a time: several requests in one message, their replies in one message back. A
 * message wakes the thread it is sent to, and on a virtual machine a wake-up costs as much as a small conversion
 * (measured here: ~0.5 ms of the renderer's CPU per message), so a renderer draining a backlog sends its quick jobs
 * in chunks and pays that once a chunk (`chunksOf` in the renderer decides what goes together).
 */
export class ConversionPool {
  private readonly slots: Slot[] = [];
  /** Callers waiting for a worker: urgent ones are served first. */
  private readonly waiting = { urgent: [] as Array<() => void>, other: [] as Array<() => void> };
  private nextId = 1;
  private closed = false;
  /** Workers requests that are not urgent may hold at once. */
  private readonly shared: number;

  private readonly options: PoolOptions;
  constructor(options: PoolOptions) {
    this.options = options;
    this.shared = options.size ?? Math.max(1, availableParallelism());
    for (let i = 0; i < this.shared; i++) this.slots.push(this.spawn());
  }

  /** How many worker threads run conversions at once (those kept for urgent requests included, once started). */
  get size(): number {
    return this.slots.length;
  }

  /** Resolves once every worker has loaded its modules (a cold start takes seconds), so the first job is not slow. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** One request: its result, or its error thrown. */
  async prepare(request: ConversionRequest): Promise<Conversion | Printable> {
    const [outcome] = await this.prepareAll([request]);
    if (!outcome!.ok) throw outcome!.error;
    return outcome!.result;
  }

  /**
   * A chunk of requests, run one after another by one worker: each one's outcome, in order. A worker that dies fails
   * every request of its chunk (with the same error); each is the caller's to retry. A chunk that overruns the
   * budget has its worker replaced; its requests run again one by one, so that only the one that overruns alone
   * fails (render_timeout) and the quick jobs beside it do not. An `urgent` chunk (a caller waits on it) goes before
   * the others waiting for a worker, and may take a worker kept for urgent requests.
   */
  async prepareAll(requests: ConversionRequest[], { urgent = false } = {}): Promise<Prepared[]> {
    if (requests.length === 0) return [];
    const id = this.nextId++;
    const slot = await this.reserve(id, urgent);
    const budgetMs = this.options.budgetMs ?? CONVERSION_BUDGET_MS;
    const start = epochMs();
    try {
      return await new Promise<Prepared[]>((resolve, reject) => {
        slot.busy!.resolve = resolve;
        slot.busy!.reject = reject;
        slot.worker.postMessage({ id, requests });
        // The budget runs from now: the worker has loaded its modules (`reserve` hands out no other).
        slot.busy!.budget = setTimeout(() => this.replace(slot, new BudgetOverrun()), budgetMs).unref();
      });
    } catch (error) {
      if (!(error instanceof BudgetOverrun)) throw error;
      if (requests.length > 1) return Promise.all(requests.map(async (request) => (await this.prepareAll([request], { urgent }))[0]!));
      const timedOut = new ConversionError('render_timeout', `conversion did not finish within ${budgetMs / 1000} seconds`, true);
      return [{ ok: false, error: timedOut, ms: budgetMs, timeline: { start, fetched: null, end: epochMs() } }];
    }
  }

  /**
   * One request prepared in this thread instead of a worker: for a job a caller is waiting on, quick and in need of
   * nothing from the network (its input inline, no page to fetch, no images to embed or judge), the two messages to
   * and from a worker cost as much as its conversion. A conversion here holds this thread for its few milliseconds,
   * and fetches nothing: this thread has no page fetcher, so images would be left undecided.
   */
  async prepareHere(request: ConversionRequest): Promise<Prepared> {
    const started = performance.now();
    const start = epochMs();
    try {
      const result = await prepare(request);
      return { ok: true, result, ms: performance.now() - started, timeline: { start, fetched: null, end: epochMs() } };
    } catch (error) {
      return { ok: false, error, ms: performance.now() - started, timeline: { start, fetched: null, end: epochMs() } };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /**
   * An idle worker that has loaded its modules, marked busy in the same tick it is found, so two callers can never be
   * handed the same one. An urgent request that finds none starts the worker kept for urgent requests, if it is not
   * running yet, and takes whichever worker is free first: a worker's start loads jsdom and the rest (a second or two,
   * and more than ten on a busy machine — a sync docx once waited 13 s for it while the shared workers ended dozens of
   * conversions). A caller woken for a worker that another took meanwhile waits again at the front of the line.
   */
  private async reserve(id: number, urgent: boolean): Promise<Slot> {
    for (let woken = false; ; woken = true) {
      if (this.closed) throw new ConversionError('render_failed', 'the conversion pool is closed', true);
      const idle = this.idleFor(urgent);
      if (idle) {
        idle.busy = { id, urgent, resolve: () => {}, reject: () => {} };
        // The shared workers are all taken now: the next urgent request would need the worker kept for it, whose
        // start takes seconds on a busy machine (more than a sync ceiling has been seen). Start it now, not then.
        if (!urgent && this.sharedBusy() >= this.shared) this.startUrgentWorker();
        return idle;
      }
      if (urgent) this.startUrgentWorker();
      const line = this.waiting[urgent ? 'urgent' : 'other'];
      await new Promise<void>((resolve) => (woken ? line.unshift(resolve) : line.push(resolve)));
    }
  }

  /** A worker a request may take now: any idle one for an urgent request, and for another only within `shared`. */
  private idleFor(urgent: boolean): Slot | undefined {
    if (!urgent && this.sharedBusy() >= this.shared) return undefined;
    return this.slots.find((s) => s.busy === null && s.loaded);
  }

  /** Workers held by requests that are not urgent. */
  private sharedBusy(): number {
    return this.slots.filter((s) => s.busy !== null && !s.busy.urgent).length;
  }

  /** Starts a worker kept for urgent requests if one may still be; it takes requests once loaded (`wake`). */
  private startUrgentWorker(): void {
    if (this.slots.length >= this.shared + (this.options.urgentWorkers ?? 0)) return;
    this.slots.push(this.spawn());
  }

  /** Wakes the first caller that the workers now idle can serve. */
  private wake(): void {
    if (this.waiting.urgent.length > 0 && this.idleFor(true)) this.waiting.urgent.shift()!();
    else if (this.waiting.other.length > 0 && this.idleFor(false)) this.waiting.other.shift()!();
  }

  private release(slot: Slot): void {
    clearTimeout(slot.busy?.budget);
    slot.busy = null;
    this.wake();
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SCRIPT, {
      eval: true,
      workerData: { allowPrivateHosts: this.options.allowPrivateHosts },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    worker.unref();
    let loaded!: () => void;
    const slot: Slot = { worker, busy: null, loaded: false, ready: new Promise<void>((resolve) => (loaded = resolve)) };
    worker.on('message', (message: ChunkReply | { ready: true }) => {
      if ('ready' in message) {
        slot.loaded = true;
        loaded();
        this.wake();
        return;
      }
      const busy = slot.busy;
      if (!busy || busy.id !== message.id) return;
      this.release(slot);
      busy.resolve(message.replies.map(outcomeOf));
    });
    worker.on('error', (error) => {
      loaded();
      this.replace(slot, error);
    });
    worker.on('exit', (code) => {
      loaded();
      if (!this.closed) this.replace(slot, new Error(`conversion worker exited (${code})`));
    });
    return slot;
  }

  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    clearTimeout(slot.busy?.budget);
    slot.busy?.reject(error);
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
    this.wake();
  }
}

/** A reply as the caller sees it: files as Buffers again, errors as the classes they were. */
function outcomeOf(reply: WorkerReply): Prepared {
  if (reply.ok) {
    const result = reply.result;
    if (result.kind === 'file') result.bytes = Buffer.from(result.bytes);
    return { ok: true, result, ms: reply.ms, timeline: reply.timeline };
  }
  const { error } = reply;
  return {
    ok: false,
    ms: reply.ms,
    timeline: reply.timeline,
    error: error.name === 'ConversionError' ? new ConversionError(error.code as ConversionErrorCode, error.message, error.retryable) : new Error(error.message),
  };
}
