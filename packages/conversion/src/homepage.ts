const FRONT_PAGES = /^\/(index\.(html?|php|aspx?)|home|default\.aspx?)?\/?$/i;

/**
 * Whether an address is a site's front page rather than an article: no path beyond the root (or the usual index
 * names) and no query. A front page is a list of articles; converting it gives nothing a reader wants.
 */
export function isHomepage(address: string): boolean {
  try {
    const url = new URL(address);
    return FRONT_PAGES.test(url.pathname) && url.search === '';
  } catch {
    return false;
  }
}
