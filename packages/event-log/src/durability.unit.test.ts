import { describe, expect, it } from 'vitest';
import { existingTopicProblem, topicDurability, TopicSettingsError } from './durability.ts';

const defaults = { replication: null, minInsync: null, allowUnsafe: false };

describe('topicDurability', () => {
  it('keeps three copies and needs two on a cluster of three or more, two and two on two, one on a single broker', () => {
    expect(topicDurability(3, defaults)).toEqual({ replication: 3, minInsync: 2 });
    expect(topicDurability(5, defaults)).toEqual({ replication: 3, minInsync: 2 });
    expect(topicDurability(2, defaults)).toEqual({ replication: 2, minInsync: 2 });
    expect(topicDurability(1, defaults)).toEqual({ replication: 1, minInsync: 1 });
  });

  it('takes what it is told where that is safe', () => {
    expect(topicDurability(5, { ...defaults, replication: 5, minInsync: 3 })).toEqual({ replication: 5, minInsync: 3 });
    expect(topicDurability(3, { ...defaults, minInsync: 3 })).toEqual({ replication: 3, minInsync: 3 });
  });

  it('refuses, on a cluster, settings where one broker alone acknowledges an event, unless told to start anyway', () => {
    expect(() => topicDurability(3, { ...defaults, replication: 1 })).toThrow(/FOLIO_ALLOW_UNSAFE_TOPICS/);
    expect(() => topicDurability(3, { ...defaults, minInsync: 1 })).toThrow(TopicSettingsError);
    expect(topicDurability(3, { replication: 1, minInsync: null, allowUnsafe: true })).toEqual({ replication: 1, minInsync: 1 });
  });

  it('refuses what the cluster cannot do', () => {
    expect(() => topicDurability(1, { ...defaults, replication: 3 })).toThrow(/has 1 broker/);
    expect(() => topicDurability(3, { ...defaults, replication: 2, minInsync: 3 })).toThrow(/refuse every write/);
  });
});

describe('existingTopicProblem', () => {
  it('names a topic whose replicas are fewer than min.insync, and nothing else', () => {
    expect(existingTopicProblem('jobs', 3, { replication: 3, minInsync: 2 })).toBeNull();
    expect(existingTopicProblem('jobs', 1, { replication: 3, minInsync: 2 })).toMatch(/topic jobs has 1 replica/);
  });
});
