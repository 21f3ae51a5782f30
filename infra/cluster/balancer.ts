// The load balancer in front of the API processes: HAProxy from Debian, on a host of its own.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { spawnService, waitUntilReady, ensureReady, type RunningService } from '../services/process.ts';
import { PORTS, type Host } from './topology.ts';

export const HAPROXY = '/usr/sbin/haproxy';

/**
 * HAProxy's configuration. What it must do for Folio's callers:
 * - send work only to an API whose `/readyz` says 200, checked every second, out after two failures, and out at once
 *   when connecting to it fails (`observe layer4`), so a killed process stops getting requests within a second;
 * - retry a request elsewhere when the API it went to refused the connection or closed it without answering (killed
 *   mid-request). Retrying a POST is safe because the caller's Idempotency-Key rides along: the API that gets the
 *   retry finds the job the first one claimed, instead of converting and counting it again;
 * - let a synchronous call run its 27 s ceiling (and the API's answer after it) before giving up on a server;
 * - fail open: when every API says it is not ready at once, the cause is shared (Kafka electing leaders after a
 *   broker died, Postgres restarting) and no API is better than another; answering 503 to everything would turn a
 *   blip that the APIs ride out (their producers retry, reads need only Postgres) into an outage. Each API is listed
 *   a second time as an unchecked backup, which HAProxy uses only when no checked server is up (Envoy calls this
 *   panic mode). A dead API among the backups refuses the connection and the request is redispatched.
 */
export function haproxyConfig(balancer: Host, apis: Host[]): string {
  return `# Written by infra/cluster/balancer.ts on every start; edits are overwritten.
global
  maxconn 4096
  log stdout format raw local0 notice

defaults
  mode http
  log global
  option httplog
  option dontlognull
  timeout connect 2s
  timeout client 60s
  timeout server 40s
  timeout http-keep-alive 10s
  timeout queue 10s
  # /readyz gives each of its checks 3 s.
  timeout check 4s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response

frontend folio
  bind ${balancer.address}:${PORTS.balancer}
  default_backend apis

backend apis
  balance leastconn
  option httpchk GET /readyz
  http-check expect status 200
  option allbackups
  default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 2
${apis.map((a) => `  server ${a.name} ${a.address}:${PORTS.api} check observe layer4 error-limit 1 on-error mark-down`).join('\n')}
${apis.map((a) => `  server ${a.name}-open ${a.address}:${PORTS.api} backup`).join('\n')}
`;
}

export async function startBalancer(opts: { balancer: Host; apis: Host[]; dataDir: string }): Promise<RunningService> {
  const dataDir = path.resolve(opts.dataDir);
  await fsp.mkdir(dataDir, { recursive: true });
  const configFile = path.join(dataDir, 'haproxy.cfg');
  await fsp.writeFile(configFile, haproxyConfig(opts.balancer, opts.apis));
  const svc = await spawnService({
    name: 'haproxy',
    command: HAPROXY,
    // -db: stay in the foreground, so the supervisor owns the process.
    args: ['-db', '-f', configFile],
    dataDir,
    cmdlineMarker: configFile,
    netns: opts.balancer.netns,
    stopTimeoutMs: 5_000,
  });
  const url = `http://${opts.balancer.address}:${PORTS.balancer}/healthz`;
  await ensureReady(svc, () => waitUntilReady(svc, async () => {
    // Up when it answers at all (a 503 too: the APIs behind it start later).
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return true;
  }, { timeoutMs: 20_000, intervalMs: 200 }));
  return svc;
}
