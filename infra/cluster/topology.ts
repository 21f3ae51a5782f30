// The hosts of `npm run cluster` and what runs on each: pure data, so the layout can be read (and tested) in one
// place. Each host is a network namespace on one bridge; the machine itself is the gateway, from where the
// supervisor starts everything and an operator reaches the load balancer.

/** The cluster's /24. Chosen far from the ranges Docker, libvirt and home routers take. */
export const SUBNET = '10.231.0';
export const BRIDGE = 'folio-br0';
export const GATEWAY = `${SUBNET}.1`;
/** Every namespace and veth this cluster makes starts with these, so a leftover is recognisable (and removable). */
export const NETNS_PREFIX = 'folio-';
export const VETH_PREFIX = 'fv-';

export const PORTS = { kafka: 9092, kafkaController: 9093, postgres: 5432, registry: 8081, s3: 9000, api: 8080, balancer: 8080, receiver: 8090 } as const;

export type Role = 'broker' | 'postgres' | 'registry' | 'storage' | 'balancer' | 'api' | 'renderer' | 'projector' | 'dispatcher' | 'client' | 'receiver';

export interface Host {
  /** Short name, as in logs: broker1, api2, render1… */
  name: string;
  role: Role;
  address: string;
  /** The network namespace. */
  netns: string;
  /** The veth end left on the bridge (its peer inside the namespace is `eth0`). At most 15 characters. */
  veth: string;
}

export interface TopologyOptions {
  brokers?: number;
  apis?: number;
  renderers?: number;
}

function host(name: string, role: Role, last: number): Host {
  return { name, role, address: `${SUBNET}.${last}`, netns: `${NETNS_PREFIX}${name}`, veth: `${VETH_PREFIX}${name}` };
}

/** Hosts by role; brokers .11–, data .20–22, balancer .30, APIs .31–, renderers .41–, the rest .51–. */
export function topology(o: TopologyOptions = {}): Host[] {
  const brokers = o.brokers ?? 3;
  const apis = o.apis ?? 2;
  const renderers = o.renderers ?? 2;
  if (brokers < 1 || brokers > 9 || apis < 1 || apis > 9 || renderers < 1 || renderers > 9) {
    throw new Error('a cluster has 1–9 brokers, APIs and renderer hosts');
  }
  const range = (n: number, f: (i: number) => Host) => Array.from({ length: n }, (_, i) => f(i + 1));
  return [
    ...range(brokers, (i) => host(`broker${i}`, 'broker', 10 + i)),
    host('postgres', 'postgres', 20),
    host('registry', 'registry', 21),
    host('storage', 'storage', 22),
    host('balancer', 'balancer', 30),
    ...range(apis, (i) => host(`api${i}`, 'api', 30 + i)),
    ...range(renderers, (i) => host(`render${i}`, 'renderer', 40 + i)),
    host('projector', 'projector', 51),
    host('dispatcher', 'dispatcher', 52),
    host('client', 'client', 60),
    host('receiver', 'receiver', 61),
  ];
}

export const byRole = (hosts: Host[], role: Role): Host[] => hosts.filter((h) => h.role === role);
export const only = (hosts: Host[], role: Role): Host => {
  const found = byRole(hosts, role);
  if (found.length !== 1) throw new Error(`expected one ${role} host, found ${found.length}`);
  return found[0]!;
};

/** The KRaft controller quorum: every broker is also a controller. */
export function voters(hosts: Host[]): string {
  return byRole(hosts, 'broker').map((h, i) => `${i + 1}@${h.address}:${PORTS.kafkaController}`).join(',');
}

export function bootstrapBrokers(hosts: Host[]): string {
  return byRole(hosts, 'broker').map((h) => `${h.address}:${PORTS.kafka}`).join(',');
}

export const balancerUrl = (hosts: Host[]): string => `http://${only(hosts, 'balancer').address}:${PORTS.balancer}`;
export const receiverUrl = (hosts: Host[]): string => `http://${only(hosts, 'receiver').address}:${PORTS.receiver}`;
