// The cluster's network: one network namespace per host, each joined to a bridge by a veth pair, the bridge on the
// machine itself (the gateway, from where the supervisor probes the services and an operator reaches the balancer).
// Nothing listens on the gateway's address: every server runs inside a host's namespace.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { BRIDGE, GATEWAY, NETNS_PREFIX, SUBNET, type Host } from './topology.ts';

function ip(...args: string[]): string {
  try {
    return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`ip ${args.join(' ')}: ${(e.stderr ?? e.message).trim()}`);
  }
}

/** Namespaces of this cluster, including leftovers of a run that was killed. */
function ourNamespaces(): string[] {
  const listed = ip('netns', 'list');
  return listed.split('\n').map((l) => l.split(' ')[0]!).filter((n) => n.startsWith(NETNS_PREFIX));
}

function bridgeExists(): boolean {
  return fs.existsSync(`/sys/class/net/${BRIDGE}`);
}

/** Throws when the cluster's subnet is routed on this machine by something else than our own bridge. */
function checkSubnetFree(): void {
  const routes = ip('-4', 'route', 'show');
  const clash = routes.split('\n').find((r) => r.startsWith(`${SUBNET}.`) && !r.includes(`dev ${BRIDGE}`));
  if (clash) throw new Error(`the cluster's subnet ${SUBNET}.0/24 is already in use on this machine (${clash.trim()})`);
}

/** Removes every namespace and the bridge of this cluster. Idempotent; veths go with their namespace. */
export function removeNetwork(): void {
  for (const ns of ourNamespaces()) {
    try {
      ip('netns', 'delete', ns);
    } catch {
      // Already gone (a concurrent cleanup); the next listing would not show it.
    }
  }
  if (bridgeExists()) ip('link', 'delete', BRIDGE);
}

/** Creates the bridge and one namespace per host (replacing leftovers of an earlier run). Needs root. */
export function createNetwork(hosts: Host[]): void {
  if (process.getuid?.() !== 0) throw new Error('npm run cluster makes network namespaces: run it as root');
  removeNetwork();
  checkSubnetFree();
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${GATEWAY}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
  for (const h of hosts) {
    ip('netns', 'add', h.netns);
    ip('link', 'add', h.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', h.netns);
    ip('link', 'set', h.veth, 'master', BRIDGE);
    ip('link', 'set', h.veth, 'up');
    ip('-n', h.netns, 'addr', 'add', `${h.address}/24`, 'dev', 'eth0');
    ip('-n', h.netns, 'link', 'set', 'lo', 'up');
    ip('-n', h.netns, 'link', 'set', 'eth0', 'up');
  }
}

/**
 * Cuts a host off the network: its cable is pulled at the bridge (the host still sees its own interface up, as a
 * machine behind a failed switch port does, so its connections hang rather than fail at once).
 */
export function cutOff(h: Host): void {
  ip('link', 'set', h.veth, 'down');
}

export function reconnect(h: Host): void {
  ip('link', 'set', h.veth, 'up');
}
