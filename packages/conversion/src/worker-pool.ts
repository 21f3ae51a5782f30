import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { ConversionError, type ConversionErrorCode } from './errors.ts';
import type { Conversion, ConversionRequest, Printable } from './convert.ts';

export interface PoolOptions {
  /** Worker threads (default: the machine's cores). */
  size?: number;
  /** FOLIO_ALLOW_PRIVATE_HOSTS, for each worker's page fetcher. */
  allowPrivateHosts: string[];
}

/**
 * A larger young generation than V8's default for a worker: jsdom allocates a great many short-lived objects, and with
 * the default a fifth of a worker's time went to scavenges; with 64 MB url→pdf's preparation ran 6–20 % faster.
 */
const YOUNG_GENERATION_MB = 64;

type Reply = { id: number; ok: true; result: Conversion | Printable } | { id: number; ok: false; error: { name: string; code?: string; message: string; retryable?: boolean } };

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: { id: number; resolve: (r: Conversion | Printable) => void; reject: (e: unknown) => void } | null;
}

/**
 * Runs `prepare` (fetching, jsdom parsing, extraction, sanitising, markdown, docx) in worker threads, so that the
 * renderer's event loop stays free for Kafka heartbeats, the browser and other jobs: a 1,000,000-character input
 * keeps a thread busy for seconds. A worker that dies fails only the job it had, and is replaced.
 */
export class ConversionPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Array<() => void> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {
    const size = options.size ?? Math.max(1, availableParallelism());
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Resolves once every worker has loaded its modules (a cold start takes seconds), so the first job is not slow. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  async prepare(request: ConversionRequest): Promise<Conversion | Printable> {
    const id = this.nextId++;
    const slot = await this.reserve(id);
    return new Promise((resolve, reject) => {
      slot.busy!.resolve = resolve;
      slot.busy!.reject = reject;
      slot.worker.postMessage({ id, request });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /** An idle worker, marked busy in the same tick it is found, so two callers can never be handed the same one. */
  private async reserve(id: number): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new ConversionError('render_failed', 'the conversion pool is closed', true);
      const idle = this.slots.find((s) => s.busy === null);
      if (idle) {
        idle.busy = { id, resolve: () => {}, reject: () => {} };
        return idle;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(slot: Slot): void {
    slot.busy = null;
    this.waiting.shift()?.();
  }

  private spawn(): Slot {
    // Workers load TypeScript through tsx, as the main thread does (hooks are not inherited by workers on Node 20).
    const entry = new URL('./worker.ts', import.meta.url).href;
    const worker = new Worker(
      `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`,
      { eval: true, workerData: { allowPrivateHosts: this.options.allowPrivateHosts }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } },
    );
    worker.unref();
    let loaded!: () => void;
    const slot: Slot = { worker, busy: null, ready: new Promise<void>((resolve) => (loaded = resolve)) };
    worker.on('message', (reply: Reply | { ready: true }) => {
      if ('ready' in reply) return loaded();
      const busy = slot.busy;
      if (!busy || busy.id !== reply.id) return;
      this.release(slot);
      if (reply.ok) {
        const result = reply.result;
        if (result.kind === 'file') result.bytes = Buffer.from(result.bytes);
        busy.resolve(result);
      } else {
        const { error } = reply;
        busy.reject(
          error.name === 'ConversionError'
            ? new ConversionError(error.code as ConversionErrorCode, error.message, error.retryable)
            : new Error(error.message),
        );
      }
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
    slot.busy?.reject(error);
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
    this.waiting.shift()?.();
  }
}
