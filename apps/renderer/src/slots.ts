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
 * A fixed number of render slots shared by both lanes. A freed slot goes to a waiting synchronous job before any
 * asynchronous one, so an async backlog never makes a synchronous caller wait for a slot.
 */
export class RenderSlots {
  private free: number;
  private readonly waiting = { sync: [] as Array<() => void>, async: [] as Array<() => void> };
  /** Jobs waiting to run alone, first come first served; they hold no slot while they wait, so they cannot deadlock. */
  private readonly isolating: Array<() => void> = [];

  readonly size: number;
  constructor(size: number) {
    this.size = size;
    this.free = size;
  }

  async acquire(lane: 'sync' | 'async'): Promise<Slot> {
    if (this.free > 0 && this.isolating.length === 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    let held = 1;
    return {
      isolate: async () => {
        if (held === this.size) return;
        this.free += held;
        held = 0;
        await new Promise<void>((resolve) => {
          this.isolating.push(() => {
            held = this.size;
            resolve();
          });
          this.dispatch();
        });
      },
      release: () => {
        this.free += held;
        held = 0;
        this.dispatch();
      },
    };
  }

  private dispatch(): void {
    if (this.isolating.length > 0) {
      if (this.free === this.size) {
        this.free = 0;
        this.isolating.shift()!();
      }
      return;
    }
    while (this.free > 0) {
      const next = this.waiting.sync.shift() ?? this.waiting.async.shift();
      if (!next) return;
      this.free--;
      next();
    }
  }
}
