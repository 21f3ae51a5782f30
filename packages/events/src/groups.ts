import type { Topics } from './topics.ts';

/** Folio's consumer groups, and the topics each reads. Every name carries the topic prefix, as the topics do. */
export function consumerGroups(prefix: string, topics: Topics): Array<{ name: string; group: string; topics: string[] }> {
  return [
    { name: 'folio-projector', group: `${prefix}folio-projector`, topics: [topics.queuedSync, topics.queuedAsync, topics.lifecycle] },
    { name: 'folio-renderer-sync', group: `${prefix}folio-renderer-sync`, topics: [topics.queuedSync] },
    { name: 'folio-renderer-async', group: `${prefix}folio-renderer-async`, topics: [topics.queuedAsync] },
    { name: 'folio-dispatcher', group: `${prefix}folio-dispatcher`, topics: [topics.lifecycle] },
  ];
}
