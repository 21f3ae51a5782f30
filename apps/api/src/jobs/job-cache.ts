import { jobJson, type JobBody } from '@folio/job-view';
import type { Plan } from '@folio/keys';
import { isFinal } from '@folio/projections';

/** A reading of a job as it is sent: the JSON body and the Retry-After of an unfinished job. */
export interface JobReading {
  json: string;
  retryAfter: string | null;
}

/** Taken before a job is read from the store, so a change announced during the read keeps the result out. */
export interface ReadTicket {
  jobId: string;
  seq: number;
  at: number;
}

interface Entry extends JobReading {
  keyId: string;
  plan: Plan;
  final: boolean;
  expires: number;
  bytes: number;
}

/** Where the cache learns that jobs changed: the API's JobWatch (LISTEN on the projector's notifications). */
export interface ChangeFeed {
  readonly listening: boolean;
  onChange(listener: (jobId: string | null) => void): void;
}

const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ENTRY_BYTES = 1024 * 1024;
/** An unfinished job is kept this long at most, even without a notification (one lost in a reconnect, say). */
const UNFINISHED_MS = 1000;
/** A read slower than this is not kept; changes are remembered twice as long, so no slow read can miss one. */
const SLOW_READ_MS = 5000;

/**
 * Readings of jobs, so a poll costs no round trip. A final job never changes (invariant 2, docs/invariants.md): it is
 * kept until the job stops being readable or its file link expires, whichever is first. An unfinished job is kept until the projector
 * announces a change of it (NOTIFY, through the JobWatch), and one second at most. A reading is served only to the
 * key that owns the job, under the plan it was rendered for; anything else goes to the store as before.
 */
export class JobCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private seq = 0;
  private resetSeq = 0;
  private readonly changed = new Map<string, { seq: number; at: number }>();
  private pruned = 0;

  private readonly feed: ChangeFeed;
  private readonly now: () => number;
  constructor(
    feed: ChangeFeed,
    now: () => number = Date.now,
  ) {
    this.feed = feed;
    this.now = now;
    feed.onChange((jobId) => {
      this.seq++;
      if (jobId === null) {
        this.resetSeq = this.seq;
        for (const [id, entry] of this.entries) if (!entry.final) this.drop(id);
        return;
      }
      this.changed.delete(jobId); // re-inserted at the end: the map stays in the order of the changes
      this.changed.set(jobId, { seq: this.seq, at: this.now() });
      this.drop(jobId);
      this.prune();
    });
  }

  get(jobId: string, keyId: string, plan: Plan): JobReading | null {
    const entry = this.entries.get(jobId);
    if (!entry) return null;
    if (entry.expires <= this.now()) {
      this.drop(jobId);
      return null;
    }
    return entry.keyId === keyId && entry.plan === plan ? entry : null;
  }

  begin(jobId: string): ReadTicket {
    return { jobId, seq: this.seq, at: this.now() };
  }

  /** The reading to send for `body`, kept for the next poll when that is safe. */
  keep(ticket: ReadTicket, keyId: string, plan: Plan, body: JobBody, readableUntil: string | Date): JobReading {
    const final = isFinal(body.status);
    const reading: JobReading = { json: jobJson(body), retryAfter: final ? null : RETRY_AFTER[body.status as 'queued' | 'processing'] };
    const now = this.now();
    let expires = new Date(readableUntil).getTime();
    const linkExpires = body.result?.expires_at;
    if (typeof linkExpires === 'string') expires = Math.min(expires, new Date(linkExpires).getTime());
    if (!final) {
      expires = Math.min(expires, now + UNFINISHED_MS);
      const changed = this.changed.get(ticket.jobId);
      const overlapped = (changed && changed.seq > ticket.seq) || this.resetSeq > ticket.seq;
      if (!this.feed.listening || overlapped || now - ticket.at > SLOW_READ_MS) return reading;
    }
    const bytes = reading.json.length * 2;
    if (!(expires > now) || bytes > MAX_ENTRY_BYTES) return reading;
    // A slow read of the unfinished job must not replace the final reading a later, faster read has kept.
    if (!final && this.entries.get(ticket.jobId)?.final) return reading;
    this.drop(ticket.jobId);
    while (this.bytes + bytes > MAX_BYTES && this.entries.size > 0) this.drop(this.entries.keys().next().value!);
    this.entries.set(ticket.jobId, { ...reading, keyId, plan, final, expires, bytes });
    this.bytes += bytes;
    return reading;
  }

  private drop(jobId: string): void {
    const entry = this.entries.get(jobId);
    if (!entry) return;
    this.entries.delete(jobId);
    this.bytes -= entry.bytes;
  }

  private prune(): void {
    const now = this.now();
    if (now - this.pruned < 1000) return;
    this.pruned = now;
    for (const [id, change] of this.changed) {
      if (now - change.at <= 2 * SLOW_READ_MS) break;
      this.changed.delete(id);
    }
  }
}

/** Seconds a client should wait before looking again at an unfinished job. */
export const RETRY_AFTER = { queued: '2', processing: '1' } as const;
