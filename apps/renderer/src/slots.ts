/**
 * A fixed number of render slots shared by both lanes. A freed slot goes to a waiting synchronous job before any
 * asynchronous one, so an async backlog never makes a synchronous caller wait for a slot.
 */
export class RenderSlots {
  private free: number;
  private readonly waiting = { sync: [] as Array<() => void>, async: [] as Array<() => void> };

  constructor(size: number) {
    this.free = size;
  }

  async acquire(lane: 'sync' | 'async'): Promise<() => void> {
    if (this.free > 0) {
      this.free--;
    } else {
      await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.sync.shift() ?? this.waiting.async.shift();
      if (next) next();
      else this.free++;
    };
  }
}
