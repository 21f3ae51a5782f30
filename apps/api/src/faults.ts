import { PublishTimeoutError, type EventPublisher } from '@folio/event-log';
import type { Faults } from '@folio/config';

/**
 * The faults a test injects into the API (never set in production). A JobQueued whose inline input carries
 * `unconfirmedOnMarker` is written for real and then reported as a write of unknown outcome, once per event: what a
 * publisher cut off by its deadline while the broker went away sees when the broker had appended the record.
 */
export function injectFaults(publisher: EventPublisher, faults: Faults): EventPublisher {
  const marker = faults.unconfirmedOnMarker;
  if (!marker) return publisher;
  const publish = publisher.publish.bind(publisher);
  const reported = new Set<string>();
  publisher.publish = async (...events) => {
    await publish(...events);
    const cut = events.find((e) => e.type === 'JobQueued' && e.input.text?.includes(marker) && !reported.has(e.event_id));
    if (cut) {
      reported.add(cut.event_id);
      throw new PublishTimeoutError(0);
    }
  };
  return publisher;
}
