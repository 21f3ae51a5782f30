/**
 * The jobs whose terminal event this renderer process has written, the most recent ones. A job's JobQueued can reach
 * a renderer twice (the API writes it again when its first write's outcome was unknown, and both copies land), and the
 * second copy often comes before the read model shows the job final: a renderer that finished the job itself knows
 * better than the read model, and does not convert it again. What it forgets (or another process finished) the read
 * model still answers (`AttemptStart.settled`).
 */
export class FinishedJobs {
  private readonly ids = new Set<string>();

  private readonly capacity: number;
  constructor(capacity = 10_000) {
    this.capacity = capacity;
  }

  add(jobId: string): void {
    this.ids.delete(jobId);
    this.ids.add(jobId);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }

  has(jobId: string): boolean {
    return this.ids.has(jobId);
  }
}
