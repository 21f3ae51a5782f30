import { createHash } from 'node:crypto';

/**
 * Cross-validation folds by domain, over both dev sets: a page's fold is fixed by its registrable domain
 * ("news.example.co.uk" → "example.co.uk"), so that no site has pages in two folds and a rule fitted to one page
 * cannot be "held out" on its twin from the same site (or a subdomain of it). The fold is the SHA-256 of the domain,
 * read as a number, modulo k.
 */
export const DEFAULT_FOLDS = 5;

/** Second-level labels under which a country's TLD registers names ("example.co.uk", "example.com.au"). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'go', 'gob', 'nic', 'ltd', 'plc', 'sch', 'mil']);

/** The registrable domain of a host, by the common rule (no public-suffix list: the grouping only has to be consistent). */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  if (labels.length <= 2 || /^\d+$/.test(labels.at(-1)!)) return labels.join('.');
  const tld = labels.at(-1)!;
  const second = labels.at(-2)!;
  const keep = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

export function foldOf(hostOrUrl: string, folds = DEFAULT_FOLDS): number {
  let host = hostOrUrl;
  try {
    host = new URL(hostOrUrl).hostname;
  } catch {
    // a bare domain already
  }
  const digest = createHash('sha256').update(registrableDomain(host)).digest();
  return digest.readUInt32BE(0) % folds;
}
