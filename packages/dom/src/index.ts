import { JSDOM, VirtualConsole } from 'jsdom';

/**
 * One jsdom window per thread, made on first use and shared by everything that parses or sanitises HTML in it.
 *
 * - Building a window costs more than parsing a whole article into one (≈14 ms against ≈10 ms for a 1,500-word
 *   page), and a window holds megabytes; a document made by the window's DOMParser costs neither.
 * - Nodes of one window are instances of that window's interfaces, so a DOMPurify bound to this window can sanitise
 *   a node that extraction parsed here in place, without serialising and parsing it again.
 * - Nothing runs and nothing loads: a DOMParser document has scripting disabled, the window has no `resources`
 *   option, and its console is silent (pages whose CSS jsdom cannot read would otherwise flood the logs).
 * - A DOMParser document has no window of its own (`defaultView` is null) and takes the window's address as its own.
 */
let dom: JSDOM | undefined;

function thread(): JSDOM {
  dom ??= new JSDOM('<!DOCTYPE html><html><head></head><body></body></html>', { virtualConsole: new VirtualConsole() });
  return dom;
}

/** The thread's window (for libraries that bind to one, like DOMPurify). */
export function domWindow(): JSDOM['window'] {
  return thread().window;
}

/**
 * Parses a whole HTML document. `url` (http or https) is the document's address, which relative links in it resolve
 * against (`baseURI`, unless the page has a `<base>`); without one the document is at about:blank.
 */
export function parseHtmlDocument(html: string, url: string | null = null): Document {
  const window = thread();
  window.reconfigure({ url: url && /^https?:/i.test(url) ? url : 'about:blank' });
  return new window.window.DOMParser().parseFromString(html, 'text/html');
}
