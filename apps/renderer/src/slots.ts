import type { Lane } from '@folio/events';

/** A render slot held by one job. */
export interface Slot {
  /**
   * Waits until the job has the renderer to itself: its own slot goes back, and it gets all of them once every job
   * running beside it has finished; no other job starts meanwhile. A job whose earlier start never finished runs
   * so, so that if this process dies now, it is this job's doing and no bystander's.
   */
  isolate(): Promise<void>;
  release(): void;
}

/**
 * The render slots of a renderer process: `size` that either lane may hold, and one more that only a synchronous job
 * may. A freed slot goes to a waiting synchronous job before any asynchronous one, but that alone is not enough: async
 * jobs can hold every shared slot for their whole budget (pages that are slow to answer, or slow to convert), and a
 * synchronous caller, who has seconds, would wait for the first of them to end. The slot kept for sync means one of
 * its jobs always starts at once.
 */
export class RenderSlots {
  /** Slots either lane may hold. */
  readonly size: number;
  /** Every slot, the one kept for sync jobs included. */
  readonly total: number;
  private free: number;
  /** Slots held by async jobs; never more than `size`. */
  private heldByAsync = 0;
  private readonly waiting = { sync: [] as Array<() => void>, async: [] as Array<() => void> };
  /** Jobs waiting to run alone, first come first served; they hold no slot while they wait, so they cannot deadlock. */
  private readonly isolating: Array<() => void> = [];

  constructor(size: number) {
    this.size = size;
    this.total = size + 1;
    this.free = this.total;
  }

  async acquire(lane: Lane): Promise<Slot> {
    if (this.isolating.length === 0 && this.canStart(lane)) this.take(lane);
    else await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    let held = 1;
    let asAsync = lane === 'async';
    const giveBack = () => {
      this.free += held;
      held = 0;
      if (asAsync) this.heldByAsync--;
      asAsync = false;
    };
    return {
      isolate: async () => {
        if (held === this.total) return;
        giveBack();
        await new Promise<void>((resolve) => {
          this.isolating.push(() => {
            held = this.total;
            resolve();
          });
          this.dispatch();
        });
      },
      release: () => {
        giveBack();
        this.dispatch();
      },
    };
  }

  private canStart(lane: Lane): boolean {
    return this.free > 0 && (lane === 'sync' || this.heldByAsync < this.size);
  }

  private take(lane: Lane): void {
    this.free--;
    if (lane === 'async') this.heldByAsync++;
  }

  private dispatch(): void {
    if (this.isolating.length > 0) {
      if (this.free === this.total) {
        this.free = 0;
        this.isolating.shift()!();
      }
      return;
    }
    for (;;) {
      const lane = this.waiting.sync.length > 0 ? 'sync' : this.waiting.async.length > 0 ? 'async' : null;
      if (!lane || !this.canStart(lane)) return;
      this.take(lane);
      this.waiting[lane].shift()!();
    }
  }
}
