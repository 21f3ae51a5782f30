import { describe, expect, it } from 'vitest';
import { haproxyConfig } from './balancer.ts';
import { bootstrapBrokers, byRole, only, topology, voters } from './topology.ts';

describe('cluster topology', () => {
  it('gives every host its own address, namespace and a veth name Linux accepts', () => {
    const hosts = topology({ renderers: 4, apis: 2 });
    expect(new Set(hosts.map((h) => h.address)).size).toBe(hosts.length);
    expect(new Set(hosts.map((h) => h.netns)).size).toBe(hosts.length);
    for (const h of hosts) expect(h.veth.length).toBeLessThanOrEqual(15);
    expect(byRole(hosts, 'renderer').map((h) => h.name)).toEqual(['render1', 'render2', 'render3', 'render4']);
  });

  it('makes every broker a controller of one quorum, numbered as the nodes are', () => {
    const hosts = topology();
    expect(voters(hosts)).toBe('1@10.231.0.11:9093,2@10.231.0.12:9093,3@10.231.0.13:9093');
    expect(bootstrapBrokers(hosts)).toBe('10.231.0.11:9092,10.231.0.12:9092,10.231.0.13:9092');
  });

  it('refuses a layout it cannot address', () => {
    expect(() => topology({ renderers: 0 })).toThrow(/1–9/);
    expect(() => topology({ brokers: 10 })).toThrow(/1–9/);
  });
});

describe('the balancer configuration', () => {
  const hosts = topology({ apis: 2 });
  const config = haproxyConfig(only(hosts, 'balancer'), byRole(hosts, 'api'));

  it('sends work only to APIs whose /readyz answers 200, and to each of them', () => {
    expect(config).toMatch(/option httpchk GET \/readyz/);
    expect(config).toMatch(/http-check expect status 200/);
    expect(config).toMatch(/server api1 10\.231\.0\.31:8080 check /);
    expect(config).toMatch(/server api2 10\.231\.0\.32:8080 check /);
  });

  it('fails open: every API again as an unchecked backup, used only when none passes its check', () => {
    expect(config).toMatch(/server api1-open 10\.231\.0\.31:8080 backup\n/);
    expect(config).toMatch(/server api2-open 10\.231\.0\.32:8080 backup\n/);
    expect(config).toMatch(/option allbackups/);
  });

  it('retries only where the request never got an answer, and lets a sync call run past its ceiling', () => {
    expect(config).toMatch(/retry-on conn-failure empty-response\n/);
    expect(config).toMatch(/option redispatch/);
    const serverTimeout = Number(/timeout server (\d+)s/.exec(config)?.[1]);
    expect(serverTimeout).toBeGreaterThan(27);
  });
});
