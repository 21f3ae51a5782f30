import type { Topics } from './topics.ts';

/**
 * Folio's consumer groups, and the topics each reads. Every name carries the topic prefix, as the topics do.
 * `jobsNeedIt`: no job can finish without the group. The dispatcher reads no topic: the projector owes callbacks in
 * the durable schedule, which the dispatcher works through.
 */
export function consumerGroups(prefix: string, topics: Topics): Array<{ name: string; group: string; topics: string[]; jobsNeedIt: boolean }> {
  return [
    { name: 'folio-projector', group: `${prefix}folio-projector`, topics: [topics.queuedSync, topics.queuedAsync, topics.lifecycle], jobsNeedIt: true },
    { name: 'folio-renderer-sync', group: `${prefix}folio-renderer-sync`, topics: [topics.queuedSync], jobsNeedIt: true },
    { name: 'folio-renderer-async', group: `${prefix}folio-renderer-async`, topics: [topics.queuedAsync], jobsNeedIt: true },
  ];
}
