import type { Topics } from './topics.ts';

/**
 * Folio's consumer groups, and the topics each reads. Every name carries the topic prefix, as the topics do.
 * `jobsNeedIt`: no job can finish without the group (the projector and the renderer lanes); callbacks wait for the
 * dispatcher, but conversions do not.
 */
export function consumerGroups(prefix: string, topics: Topics): Array<{ name: string; group: string; topics: string[]; jobsNeedIt: boolean }> {
  return [
    { name: 'folio-projector', group: `${prefix}folio-projector`, topics: [topics.queuedSync, topics.queuedAsync, topics.lifecycle], jobsNeedIt: true },
    { name: 'folio-renderer-sync', group: `${prefix}folio-renderer-sync`, topics: [topics.queuedSync], jobsNeedIt: true },
    { name: 'folio-renderer-async', group: `${prefix}folio-renderer-async`, topics: [topics.queuedAsync], jobsNeedIt: true },
    { name: 'folio-dispatcher', group: `${prefix}folio-dispatcher`, topics: [topics.lifecycle], jobsNeedIt: false },
  ];
}
