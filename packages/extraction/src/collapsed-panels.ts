import { closestNamed, elementsNamed, elementsWithAttribute, firstNamed, HEADINGS, isHidden, tagSet, withoutHidingStyle } from './elements.ts';
import { textLength } from './text-measure.ts';

/**
 * Opens the page's collapsed panels: an accordion's answers, a tab set's other tabs. A reader opens them with a
 * click, and a document has no click: what they hold is the page's content (an FAQ's answers, a service's
 * features, a product's specifications tab), but the page ships them marked hidden (`hidden`, `aria-hidden`,
 * `inert`, an inline `display: none`), and Readability and the region rules drop what is marked hidden.
 *
 * A panel is known by what ARIA says of it, not by its class: an element with `role="tabpanel"`, or one whose id a
 * disclosure names in `aria-controls`: a button, or anything that says whether it is expanded or selected (a tab).
 * Pages mark a question's state every which way (`aria-expanded`, `aria-selected`, `data-expanded`, a class), so a
 * button naming a panel is not asked to. Where nothing names the panels, a hidden element right after a heading is
 * one (`openSectionsUnderHeadings`). A control that opens a menu or a listbox (`aria-haspopup`) is not a
 * disclosure, and panels in the page's frame (navigation, header, footer: a mega-menu's columns) stay as they are;
 * the furniture rules deal with those.
 *
 * A panel opened this way keeps its header: in ARIA's accordion pattern the disclosure button is the whole text of a
 * heading (`<h3><button aria-expanded aria-controls>Can I return it?</button></h3>`), the question an FAQ's answer
 * answers; many pages put the heading in the button instead. Readability and the furniture rules drop every button,
 * a control no document has, which left the answers without their questions; such a button is unwrapped, so the
 * heading holds its text, where its panel holds an answer (a question alone would be a heading over nothing). A
 * button that names no panel is a question where the element after it holds text and is not another question.
 */
export function openCollapsedPanels(body: Element): void {
  const panelOf = panelFinder(body);
  const panels = new Set<Element>();
  const headers = new Map<Element, Element>();
  for (const element of elementsWithAttribute(body, ['aria-controls', 'role'])) {
    const role = element.getAttribute('role')?.trim().toLowerCase();
    if (role === 'tabpanel') {
      panels.add(element);
      continue;
    }
    const controls = element.getAttribute('aria-controls');
    if (!controls || element.hasAttribute('aria-haspopup')) continue;
    if (!isDisclosure(element, role)) continue;
    if (closestNamed(element, FRAME)) continue;
    for (const id of controls.split(/\s+/)) {
      const panel = id ? panelOf(element, id) : null;
      if (panel) {
        panels.add(panel);
        if (!headers.has(panel)) headers.set(panel, element);
      }
    }
  }
  for (const panel of panels) {
    if (closestNamed(panel, FRAME) || NOT_PANELS.has(panel.getAttribute('role')?.trim().toLowerCase() ?? '')) continue;
    const header = headers.get(panel);
    // The panel and what wraps it alone, below the element it shares with its button: a collapse animation's wrapper
    // (Chakra's `chakra-collapse`, `display: none` around the panel) closes with it and opens with it.
    const opened = header ? ownWrappers(panel, header) : [panel];
    // A tab set inside something closed (a popover's "how to allow notifications" card) stays closed with it.
    if (withinClosed(opened.at(-1)!, body)) continue;
    for (const element of opened) open(element);
    // Only for an answer that is there: a panel a script fills when it opens (Radix renders none until then) is empty.
    if (header && textLength(panel) > 0) keepQuestion(header);
  }
  openSectionsUnderHeadings(body);
  // An accordion whose script finds its panels itself names none: its answer is what follows the question.
  for (const button of elementsNamed(body, BUTTONS)) {
    if (!button.isConnected || button.hasAttribute('aria-controls') || button.hasAttribute('aria-haspopup') || closestNamed(button, FRAME)) continue;
    const heading = questionHeading(button);
    const answer = heading && (heading.contains(button) ? heading : button).nextElementSibling;
    if (answer && isAnswer(answer)) keepQuestion(button);
  }
}

/** What opens a panel it names: a button, a tab, or anything that says whether it is expanded or selected. */
function isDisclosure(element: Element, role: string | undefined): boolean {
  if (element.localName === 'button' || role === 'button' || role === 'tab') return true;
  return element.hasAttribute('aria-expanded') || element.hasAttribute('aria-selected');
}

/**
 * The panel a button names: the element with that id, or, where a template wrote the same id into every item of an
 * accordion (`aria-controls="id-2-panel"` on each question and `id="id-2-panel"` on each answer), the first one after
 * the button, which is its own: the page's script finds it by where it sits, and `getElementById` would give every
 * question the first answer. The ids are gathered once a page, when one turns out to be shared.
 */
function panelFinder(body: Element): (button: Element, id: string) => Element | null {
  let shared: Map<string, Element[]> | null = null;
  return (button, id) => {
    const first = body.ownerDocument.getElementById(id);
    if (!first || !body.contains(first)) return null;
    shared ??= elementsById(body);
    const all = shared.get(id);
    if (!all || all.length < 2) return first;
    return all.find((element) => (button.compareDocumentPosition(element) & FOLLOWING) !== 0 && !element.contains(button)) ?? first;
  };
}

const FOLLOWING = 4; // Node.DOCUMENT_POSITION_FOLLOWING

/** The elements under `body` by id, in document order, for the ids more than one element has. */
function elementsById(body: Element): Map<string, Element[]> {
  const byId = new Map<string, Element[]>();
  for (const element of elementsWithAttribute(body, ['id'])) {
    const id = element.getAttribute('id')!;
    const same = byId.get(id);
    if (same) same.push(element);
    else byId.set(id, [element]);
  }
  for (const [id, same] of byId) if (same.length < 2) byId.delete(id);
  return byId;
}

/** Text after a question, and not the next question: a row of tab headings (`<h2><button>Specs</button></h2>` × 4) is not. */
function isAnswer(element: Element): boolean {
  return !HEADINGS.has(element.localName) && !firstNamed(element, HEADINGS) && textLength(element) > 0;
}

/**
 * Unwraps a disclosure button that is all of a heading's text, whether it sits in the heading (ARIA's pattern) or
 * holds it (`<button><h3>Can I return it?</h3></button>`, common though a heading is not a button's content). A
 * heading classed as the accordion's header (`accordion__header`) keeps its question from Readability by
 * heading-names.ts, as every heading does.
 */
function keepQuestion(button: Element): void {
  if (questionHeading(button)) button.replaceWith(...Array.from(button.childNodes));
}

const BUTTONS = tagSet('button');
const ICONS = tagSet('svg');

/** The heading a button is all of, around it or inside it: the accordion's header, not a control beside one. */
function questionHeading(button: Element): Element | null {
  if (button.localName !== 'button') return null;
  const own = shownTextLength(button);
  if (own === 0) return null;
  const around = closestNamed(button, HEADINGS);
  if (around) return shownTextLength(around) === own ? around : null;
  const inside = firstNamed(button, HEADINGS);
  return inside && shownTextLength(inside) === own ? inside : null;
}

/** Text less an icon's: an SVG's `<title>` ("Open accordion") names the chevron beside the question, for a screen reader. */
function shownTextLength(element: Element): number {
  let length = textLength(element);
  for (const icon of elementsNamed(element, ICONS)) if (!closestNamed(icon.parentElement!, ICONS)) length -= textLength(icon);
  return length;
}

/**
 * A panel and its ancestors that do not hold `button`, innermost first, short of a popover or a dialog: a panel
 * inside one whose button is outside it is closed with it (`withinClosed`).
 */
function ownWrappers(panel: Element, button: Element): Element[] {
  const own = [panel];
  for (let at = panel.parentElement; at && !at.contains(button) && !closesOnItsOwn(at); at = at.parentElement) {
    own.push(at);
  }
  return own;
}

/** A popover or a dialog: closed on purpose until something opens it, never a panel's wrapper. */
function closesOnItsOwn(element: Element): boolean {
  return element.hasAttribute('popover') || element.localName === 'dialog';
}

function open(element: Element): void {
  element.removeAttribute('hidden');
  element.removeAttribute('inert');
  if (element.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true') element.removeAttribute('aria-hidden');
  const style = element.getAttribute('style');
  if (style) element.setAttribute('style', withoutHidingStyle(style));
}

function withinClosed(panel: Element, body: Element): boolean {
  for (let at = panel.parentElement; at && at !== body; at = at.parentElement) {
    if (at.hasAttribute('popover') || at.hasAttribute('inert') || isHidden(at)) return true;
  }
  return false;
}

const FRAME = tagSet('nav', 'header', 'footer', 'dialog');

/** Roles of what a button may open that is not a panel of the page's content. */
const NOT_PANELS = new Set(['menu', 'menubar', 'navigation', 'dialog', 'alertdialog', 'listbox', 'tooltip', 'search', 'banner', 'contentinfo']);

/** What introduces a section: a heading below the title, or a definition list's term. */
const SECTION_HEADS = tagSet('h2', 'h3', 'h4', 'h5', 'h6', 'dt');

/**
 * Opens a hidden element that follows a heading: an accordion whose script finds each answer by where it sits names
 * none (`<h3>Cushioning</h3><div hidden>The midsole…</div>`, a buying guide's sections; an FAQ's answers behind
 * `display: none`), so ARIA cannot tell it, and its answers are the page's content. A heading over nothing shown
 * is the sign. The frame's, and what sits inside something closed, stay hidden as above. Measured on WCXB dev: two
 * pages gain (a product's FAQ, a buying guide), and a forum's description its theme hides under a thread's title
 * comes back, as does a service's promotion under its heading (four pages lose 0.002–0.005).
 */
function openSectionsUnderHeadings(body: Element): void {
  for (const element of elementsWithAttribute(body, ['hidden', 'style', 'aria-hidden'])) {
    if (!isHidden(element) || !SECTION_HEADS.has(element.previousElementSibling?.localName ?? '')) continue;
    // A popover or a dialog after a heading (a "share" card) is closed on purpose, not a section waiting for a click.
    if (closesOnItsOwn(element)) continue;
    if (closestNamed(element, FRAME) || withinClosed(element, body)) continue;
    open(element);
  }
}
