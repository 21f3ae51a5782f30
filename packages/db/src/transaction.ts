import type postgres from 'postgres';
import type { Sql } from './client.ts';

/**
 * A statement made on a connection and not awaited yet (postgres.js sends a query when it is first awaited), or
 * nothing (`false`) where a statement was not needed.
 */
export type Statement = postgres.PendingQuery<postgres.Row[]> | false;

/** Where statements go: a pool, a transaction's connection or a connection held by `readThenWrite`. */
export type Queryable = postgres.Sql | postgres.TransactionSql;

/** How long a failed transaction's ROLLBACK is waited for before its connection goes back (see readThenWrite). */
const ROLLBACK_WAIT_MS = 5_000;

/** Resolves when `work` settles, either way, or after `ms`, whichever is first. */
function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work.then(() => {}, () => {}), waited]).finally(() => clearTimeout(timer));
}

/** A connection of the pool held for one transaction. */
export type Connection = postgres.ReservedSql;

/**
 * A transaction in two round trips: `BEGIN` goes out with the reads, and `COMMIT` with the writes, all pipelined on
 * one connection. postgres.js' `begin()` takes four (it waits for `BEGIN`, then for the callback, then for `COMMIT`),
 * and on a machine where every round trip wakes two processes that is what a small transaction costs most.
 *
 * `write` must return its statements unawaited, in the order they are to run: every one of them is sent before
 * `COMMIT`. When any statement fails the transaction is rolled back (a failed write makes the `COMMIT` a rollback)
 * and the error is thrown.
 */
export async function readThenWrite<R, W>(
  sql: Sql,
  read: (tx: Connection) => Promise<R>,
  write: (tx: Connection, read: R) => { statements: Statement[]; result: W },
): Promise<W> {
  const tx = await sql.reserve();
  let open = false;
  try {
    open = true;
    // Sent in the order they are set going: BEGIN before anything `read` sends.
    const begun = tx`begin`.execute();
    const [, got] = await Promise.all([begun, read(tx)]);
    const { statements, result } = write(tx, got);
    const sent = statements.filter((s) => s !== false).map((s) => s.execute());
    // Everything settles before the connection goes back: after a failed statement the COMMIT rolls back instead.
    const outcomes = await Promise.allSettled([...sent, tx`commit`.execute()]);
    open = false;
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    return result;
  } catch (error) {
    // A read failed (or BEGIN): nothing was written; end the transaction before the connection goes back. After the
    // connection itself was lost (a reset while Postgres stops) the server has ended the transaction, and the
    // ROLLBACK fails at once with CONNECTION_CLOSED: postgres.js 3.4.9 never settled one made between the socket's
    // error and its close, and sent one made later on the connection made again for the next caller (patched in
    // patches/postgres+3.4.9.patch; tests/postgres-connection-loss). Awaited unbounded, that held a projector's batch
    // for ever and stranded its jobs (tests/postgres-outage, once). The wait stays bounded, so that no state of the
    // client yet unseen can do that again; a ROLLBACK that is only slow still runs first on the connection, since
    // postgres.js sends a connection's statements in order.
    if (open) await settledWithin(tx`rollback`.execute(), ROLLBACK_WAIT_MS);
    throw error;
  } finally {
    tx.release();
  }
}
