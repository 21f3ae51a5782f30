import type { Sql } from '@folio/db';

/** Held for a replay's whole run: two replays would build into the same schema. */
const REPLAY_LOCK = 7_406_311_003;

export class ReplayRunningError extends Error {
  constructor() {
    super('another replay is running');
    this.name = 'ReplayRunningError';
  }
}

export class ReplayLockLostError extends Error {
  constructor(cause: unknown) {
    super("the replay's lock ended with its database connection, so another replay may have begun: nothing was swapped; run it again", { cause });
    this.name = 'ReplayLockLostError';
  }
}

export interface ReplayLock {
  /** Resolves while the lock is held; rejects with ReplayLockLostError once it was lost, at any moment before. */
  held(): Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes the replay's lock: a session's advisory lock, on a connection reserved for the replay's whole run. Postgres
 * ends it with the session, so a connection lost mid-run (a reset, Postgres restarting) gives it up without a word,
 * and another replay could begin building into the same tables. `held` asks over that very connection: once it was
 * lost, every statement made there fails (patches/postgres+3.4.9.patch), so a loss at any moment before is noticed.
 */
export async function takeReplayLock(sql: Sql): Promise<ReplayLock> {
  const guard = await sql.reserve();
  try {
    const [{ locked }] = (await guard`select pg_try_advisory_lock(${REPLAY_LOCK}) as locked`) as unknown as [{ locked: boolean }];
    if (!locked) throw new ReplayRunningError();
  } catch (error) {
    guard.release();
    throw error;
  }
  return {
    held: async () => {
      await guard`select 1`.execute().catch((error: unknown) => {
        throw new ReplayLockLostError(error);
      });
    },
    release: async () => {
      await guard`select pg_advisory_unlock(${REPLAY_LOCK})`.execute().catch(() => {});
      guard.release();
    },
  };
}
