import { createRequire } from 'node:module';

/**
 * jsdom 29.1.1 finds an element's attribute by namespace and name — which every attribute the parser sets asks
 * first, to change it if it is already there — by scanning the element's attributes, and checks and removes an
 * attribute node by scanning them from the first. So an element of n attributes costs n² to parse and as much again
 * for DOMPurify to strip them (it removes them one by one, last first): 32,000 attributes on one `<p>` (0.5 MB) took
 * jsdom 5.2 s to parse, where parse5 alone takes 50 ms, and 60,000 (1.2 MB, within the interface's limit) 44 s to
 * convert to text.
 *
 * Here the lookup without a namespace answers from the map of names jsdom keeps beside the list (an attribute
 * without a namespace has no prefix, so its qualified name is its local name, and at most one has a given name),
 * whether a node is an element's attribute is read from the node (jsdom sets its element when it joins the list and
 * clears it when it leaves), and a removal looks for the node from the end of the list. The answers are jsdom's own.
 */
interface Attr {
  _namespace: string | null;
  _localName: string;
  _qualifiedName: string;
  _value: string;
  _element: Element | null;
}
interface Element {
  _attributeList: Attr[];
  _attributesByNameMap: Map<string, Attr[]>;
  _ceState: string;
  _attrModified(name: string, value: string | null, oldValue: string | null): void;
}
interface Attributes {
  getAttributeByNameNS(element: Element, namespace: string | null, localName: string): Attr | null;
  hasAttribute(element: Element, attribute: Attr): boolean;
  removeAttribute(element: Element, attribute: Attr): void;
}

const PATCHED = Symbol('folio.attributeLookups');
const require = createRequire(import.meta.url);

export function findAttributesByName(): void {
  const attributes = require('jsdom/lib/jsdom/living/attributes.js') as Attributes & { [PATCHED]?: true };
  if (attributes[PATCHED]) return;
  Object.defineProperty(attributes, PATCHED, { value: true });
  const { queueAttributeMutationRecord } = require('jsdom/lib/jsdom/living/helpers/mutation-observers.js') as {
    queueAttributeMutationRecord(element: Element, localName: string, namespace: string | null, oldValue: string | null): void;
  };
  const { enqueueCECallbackReaction } = require('jsdom/lib/jsdom/living/helpers/custom-elements.js') as {
    enqueueCECallbackReaction(element: Element, callback: string, args: unknown[]): void;
  };

  const byNameNS = attributes.getAttributeByNameNS;
  attributes.getAttributeByNameNS = function getAttributeByNameNS(element, namespace, localName) {
    if (namespace !== null && namespace !== '') return byNameNS(element, namespace, localName);
    const named = element._attributesByNameMap.get(localName);
    if (named) for (const attribute of named) if (attribute._namespace === null) return attribute;
    return null;
  };

  attributes.hasAttribute = function hasAttribute(element, attribute) {
    return attribute._element === element;
  };

  // jsdom's own steps (https://dom.spec.whatwg.org/#concept-element-attributes-remove), the node looked for from the
  // end: DOMPurify removes the last attributes first.
  attributes.removeAttribute = function removeAttribute(element, attribute) {
    const { _localName, _namespace, _value } = attribute;
    queueAttributeMutationRecord(element, _localName, _namespace, _value);
    if (element._ceState === 'custom') enqueueCECallbackReaction(element, 'attributeChangedCallback', [_localName, _value, null, _namespace]);
    const at = element._attributeList.lastIndexOf(attribute);
    if (at === -1) return;
    element._attributeList.splice(at, 1);
    attribute._element = null;
    const name = attribute._qualifiedName;
    const named = element._attributesByNameMap.get(name)!;
    named.splice(named.indexOf(attribute), 1);
    if (named.length === 0) element._attributesByNameMap.delete(name);
    element._attrModified(name, null, attribute._value);
  };
}
