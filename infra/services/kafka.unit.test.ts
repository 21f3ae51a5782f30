import { describe, expect, it } from 'vitest';
import { serverProperties } from './kafka.ts';

const props = (text: string) => Object.fromEntries(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(/=(.*)/s).slice(0, 2)));

describe('a Kafka node’s server.properties', () => {
  it('one node on loopback keeps one replica of everything (the dev stack and the tests)', () => {
    const p = props(serverProperties({ port: 19092, controllerPort: 19093, dataDir: '/x' }, '/x/data'));
    expect(p['node.id']).toBe('1');
    expect(p['controller.quorum.voters']).toBe('1@127.0.0.1:19093');
    expect(p['advertised.listeners']).toBe('PLAINTEXT://127.0.0.1:19092');
    expect(p['offsets.topic.replication.factor']).toBe('1');
    expect(p['min.insync.replicas']).toBe('1');
    expect(p['metadata.max.idle.interval.ms']).toBe('5000');
  });

  it('a node of three keeps three replicas of the broker’s own topics, two in sync, and never elects a stale leader', () => {
    const p = props(serverProperties({
      port: 9092, controllerPort: 9093, dataDir: '/x', address: '10.231.0.12',
      cluster: { nodeId: 2, voters: '1@a:9093,2@b:9093,3@c:9093', size: 3, clusterId: 'id' },
    }, '/x/data'));
    expect(p['node.id']).toBe('2');
    expect(p['controller.quorum.voters']).toBe('1@a:9093,2@b:9093,3@c:9093');
    expect(p.listeners).toBe('PLAINTEXT://10.231.0.12:9092,CONTROLLER://10.231.0.12:9093');
    expect(p['offsets.topic.replication.factor']).toBe('3');
    expect(p['transaction.state.log.min.isr']).toBe('2');
    expect(p['min.insync.replicas']).toBe('2');
    expect(p['unclean.leader.election.enable']).toBe('false');
    expect(p['metadata.max.idle.interval.ms']).toBeUndefined();
  });
});
