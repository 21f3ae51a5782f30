/**
 * When `npm start`'s supervisor starts an app again after it died, and when it stops trying. The first restart comes
 * soon, later ones less eagerly, so an app that dies because something it needs is away does not hammer it. An app
 * that has stayed up a while is healthy again: its next crash starts the backoff over. Crashes that come thick and
 * fast mean the app cannot run at all; restarting it forever would hide that behind a stack that looks up, so the
 * supervisor gives up and says so.
 */
export interface RestartPolicy {
  /** Wait before the first restart of a series; each further crash in the series doubles it… */
  firstDelayMs: number;
  /** …up to this. */
  maxDelayMs: number;
  /** An app up this long is healthy again: its next crash waits `firstDelayMs` again. */
  healthyAfterMs: number;
  /** This many crashes within `windowMs`, and the supervisor gives up. */
  maxCrashes: number;
  windowMs: number;
}

export const restartPolicy: RestartPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  healthyAfterMs: 60_000,
  maxCrashes: 5,
  windowMs: 120_000,
};

/** What the policy remembers of an app's crashes. */
export interface CrashRecord {
  /** When each crash still inside the window happened (ms since the epoch), oldest first. */
  readonly recent: readonly number[];
  /** Crashes since the app was last healthy: sets the delay. */
  readonly series: number;
}

export const noCrashes: CrashRecord = { recent: [], series: 0 };

export type Verdict =
  | { restart: true; delayMs: number; record: CrashRecord }
  | { restart: false; record: CrashRecord };

/** What to do about an app that was started at `startedAt` and died, unasked, at `diedAt`. */
export function afterCrash(
  record: CrashRecord,
  run: { startedAt: number; diedAt: number },
  policy: RestartPolicy = restartPolicy,
): Verdict {
  const recent = [...record.recent.filter((at) => run.diedAt - at < policy.windowMs), run.diedAt];
  const series = run.diedAt - run.startedAt >= policy.healthyAfterMs ? 1 : record.series + 1;
  const next: CrashRecord = { recent, series };
  if (recent.length >= policy.maxCrashes) return { restart: false, record: next };
  return { restart: true, delayMs: Math.min(policy.firstDelayMs * 2 ** (series - 1), policy.maxDelayMs), record: next };
}
