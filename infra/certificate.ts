// A self-signed certificate for a receiver of callbacks (the interface wants https webhook URLs), made with openssl.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate for the given names and addresses; `caFile` is what NODE_EXTRA_CA_CERTS names to trust it. */
export function selfSignedCertificate(
  names: { dns?: string[]; ips?: string[] } = { dns: ['localhost'], ips: ['127.0.0.1'] },
): { key: Buffer; cert: Buffer; keyFile: string; caFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'folio-receiver-'));
  const keyFile = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  const alt = [...(names.dns ?? []).map((d) => `DNS:${d}`), ...(names.ips ?? []).map((ip) => `IP:${ip}`)].join(',');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${names.dns?.[0] ?? names.ips?.[0] ?? 'localhost'}`,
    '-addext', `subjectAltName=${alt}`, '-keyout', keyFile, '-out', caFile,
  ], { stdio: 'ignore' });
  return { key: readFileSync(keyFile), cert: readFileSync(caFile), keyFile, caFile };
}
