/** The host name an address names; null for no address, or one that does not parse. */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/**
 * The page an address names, without its query, its fragment, a trailing slash or a `www.` (a shop's variant links
 * and its canonical addresses differ in those only); null for one that does not parse.
 */
export function pageOf(url: string, base?: string): string | null {
  try {
    const parsed = new URL(url, base);
    return `${parsed.host.replace(/^www\./, '')}${parsed.pathname.replace(/\/$/, '')}`;
  } catch {
    return null;
  }
}
