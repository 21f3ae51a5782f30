import { CURRENT_VERSION, DEFAULT_OPTIONS, type JobEvent, type JobEventType, type JobQueued } from './types.ts';

/**
 * Upcasting: an event as it was written, in any version, becomes the current shape. Each step takes version n to
 * n+1, so an old event climbs the chain one release at a time; writers only ever write the current version.
 */
type Upcaster = (event: Record<string, unknown>) => Record<string, unknown>;

const JOB_TTL_V1_MS = 48 * 3600 * 1000;

const UPCASTERS: Partial<Record<JobEventType, Record<number, Upcaster>>> = {
  JobQueued: {
    /** v1 carried markdown inline, had no lanes (everything was synchronous) and only a title option. */
    1: (v1) => {
      const occurredAt = String(v1.occurred_at);
      const v2: Omit<JobQueued, 'type' | 'version' | 'rerun_of'> & { type: string; version: number } = {
        type: 'JobQueued',
        version: 2,
        event_id: String(v1.event_id),
        job_id: String(v1.job_id),
        occurred_at: occurredAt,
        request_id: String(v1.event_id),
        key_id: String(v1.key_id),
        lane: 'sync',
        output: v1.output as JobQueued['output'],
        input: { kind: 'markdown', text: String(v1.markdown), ref: null },
        options: { ...DEFAULT_OPTIONS, title: (v1.title as string | null) ?? null },
        webhook_url: null,
        expires_at: new Date(Date.parse(occurredAt) + JOB_TTL_V1_MS).toISOString(),
      };
      return v2 as unknown as Record<string, unknown>;
    },
    /** v3 added `rerun_of`: no job before it was a rerun. */
    2: (v2) => ({ ...v2, version: 3, rerun_of: null }),
  },
};

export class UnknownEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownEventError';
  }
}

export function upcast(raw: Record<string, unknown>): JobEvent {
  const type = raw.type as JobEventType;
  if (!(type in CURRENT_VERSION)) throw new UnknownEventError(`unknown event type ${String(raw.type)}`);
  const target = CURRENT_VERSION[type];
  let event = raw;
  let version = Number(raw.version);
  while (version < target) {
    const step = UPCASTERS[type]?.[version];
    if (!step) throw new UnknownEventError(`no upcaster for ${type} v${version}`);
    event = step(event);
    version = Number(event.version);
  }
  if (version !== target) throw new UnknownEventError(`${type} v${version} is newer than this code (v${target})`);
  return event as unknown as JobEvent;
}
