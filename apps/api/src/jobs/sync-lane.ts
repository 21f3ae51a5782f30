import type { Logger } from '@folio/logging';
import { admitSyncCall, expectedWaitMs, READINGS_KEPT_MS, type Admission, type LaneReading } from './sync-admission.ts';

/** How often the lane is read while synchronous calls come in. */
const READ_EVERY_MS = 1000;
/** The lane is read for this long after the last synchronous call, then left alone (an idle API reads nothing). */
const QUIET_AFTER_MS = 30_000;

/**
 * The sync lane as this API process sees it, for admitting synchronous calls (`admitSyncCall`): its backlog and drain
 * rate, read from the log (the renderers' sync group: lag, committed position, members) once a second while calls
 * come in. Every API process reads the same log, so all of them refuse and accept alike, whichever the balancer picks.
 */
export class SyncLane {
  private readings: LaneReading[] = [];
  private lastCall = 0;
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;

  private readonly options: {
      read: () => Promise<Omit<LaneReading, 'at'>>;
      /** Render slots of each renderer process (FOLIO_RENDER_CONCURRENCY). */
      slotsEach: number;
      ceilingMs: number;
      logger: Logger;
    };
  constructor(
    options: {
      read: () => Promise<Omit<LaneReading, 'at'>>;
      /** Render slots of each renderer process (FOLIO_RENDER_CONCURRENCY). */
      slotsEach: number;
      ceilingMs: number;
      logger: Logger;
    },
  ) {
    this.options = options;
  }

  /** Whether a synchronous call arriving now is taken; it also keeps the lane being read. */
  admit(): Admission {
    this.lastCall = Date.now();
    this.timer ??= setTimeout(() => void this.tick(), 0);
    return admitSyncCall(this.expectedWaitMs(), this.options.ceilingMs);
  }

  /** Whether a call would be taken now, without counting as one (for /readyz). */
  wouldAdmit(): boolean {
    return admitSyncCall(this.expectedWaitMs(), this.options.ceilingMs).accepted;
  }

  /** What a job queued now would wait for a renderer, in ms, as of the last reading (for /readyz). */
  expectedWaitMs(): number {
    return expectedWaitMs(this.readings, this.options.slotsEach, this.options.ceilingMs, Date.now());
  }

  /** The last reading, for /readyz. */
  latest(): LaneReading | null {
    return this.readings.at(-1) ?? null;
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastCall = 0;
    await this.reading;
  }

  private async tick(): Promise<void> {
    this.reading = this.read();
    await this.reading;
    this.reading = null;
    if (Date.now() - this.lastCall < QUIET_AFTER_MS && this.timer) this.timer = setTimeout(() => void this.tick(), READ_EVERY_MS);
    else this.timer = null;
  }

  private async read(): Promise<void> {
    try {
      const reading = { ...(await this.options.read()), at: Date.now() };
      // Kept long enough to tell a stalled lane (half the ceiling without progress) from a slow one.
      const keep = Math.max(READINGS_KEPT_MS, this.options.ceilingMs);
      this.readings = [...this.readings.filter((r) => r.at >= reading.at - keep), reading];
    } catch (error) {
      // The broker away: the readings age out and calls are taken, as they would be without this.
      this.options.logger.warn({ err: error }, 'the sync lane could not be read');
      this.readings = this.readings.filter((r) => r.at >= Date.now() - READINGS_KEPT_MS);
    }
  }
}
