import { createRequire } from 'node:module';

/**
 * Two steps of jsdom 29.1.1 walk a parent's children at every change to them, so that taking k of n children out one
 * by one, or hoisting k wrappers' children into their parent, costs k·n — DOMPurify unwrapping 4,000 disallowed
 * elements side by side took 20 s, Readability removing 10,000 `<noscript>` fallbacks among their siblings 425 s:
 *
 * - An insertion before a sibling, and a removal, first find that node's index among its siblings (walking those
 *   before it: each change spoils the indexes symbol-tree caches). The index only moves the boundaries of live
 *   `Range`s (the DOM standard's insert and remove steps), and nothing Folio runs makes a Range. Here a change that
 *   no live Range can see — neither the parent nor, for a removal, anything in the subtree that leaves is a Range's
 *   boundary — never asks for it; where one can, jsdom runs as before.
 * - Once a parent's `children` or `childNodes` has been read, every change rebuilds those lists at once. Each read
 *   of them (`length`, an index, `item`) already brings them up to date first, by the parent's version, so the
 *   rebuild at the change is left to the next read.
 *
 * The tree ends the same either way; only the walks are left out.
 */
interface NodeImpl {
  _referencedRanges: Set<unknown>;
  _childrenList: unknown;
  _childNodesList: unknown;
  _insert(node: NodeImpl, child: NodeImpl | null, suppressObservers?: boolean): void;
  _remove(node: NodeImpl, suppressObservers?: boolean): void;
  _modified(): void;
}
interface SymbolTree {
  index(child: NodeImpl): number;
  treeIterator(root: NodeImpl): Iterable<NodeImpl>;
}

const PATCHED = Symbol('folio.siblingWalks');
const require = createRequire(import.meta.url);

export function skipSiblingWalks(): void {
  const { domSymbolTree: tree } = require('jsdom/lib/jsdom/living/helpers/internal-constants.js') as { domSymbolTree: SymbolTree };
  const { implementation } = require('jsdom/lib/jsdom/living/nodes/Node-impl.js') as { implementation: { prototype: NodeImpl } };
  const proto = implementation.prototype as NodeImpl & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  Object.defineProperty(proto, PATCHED, { value: true });

  // The node whose index the next call would ask for only to move Range boundaries that do not exist.
  let unneeded: NodeImpl | null = null;
  const index = tree.index;
  tree.index = function siblingIndex(this: SymbolTree, child: NodeImpl): number {
    if (child === unneeded) {
      unneeded = null;
      return -1;
    }
    return index.call(this, child);
  };

  const insert = proto._insert;
  proto._insert = function insertWithoutIndex(this: NodeImpl, node, child, suppressObservers) {
    const before = unneeded;
    // jsdom's first step asks for `child`'s index, and uses it only for this parent's live Ranges.
    if (child && this._referencedRanges.size === 0) unneeded = child;
    try {
      return insert.call(this, node, child, suppressObservers);
    } finally {
      unneeded = before;
    }
  };

  const remove = proto._remove;
  proto._remove = function removeWithoutIndex(this: NodeImpl, node, suppressObservers) {
    const before = unneeded;
    // jsdom's first step asks for `node`'s index, and uses it only for Ranges with a boundary in this parent or in
    // the subtree that leaves.
    if (this._referencedRanges.size === 0 && noRangeIn(node)) unneeded = node;
    try {
      return remove.call(this, node, suppressObservers);
    } finally {
      unneeded = before;
    }
  };

  const modified = proto._modified;
  proto._modified = function modifiedWithoutRebuild(this: NodeImpl) {
    // jsdom's step rebuilds the lists it finds here; hidden for its duration, they are rebuilt at their next read.
    const children = this._childrenList;
    const childNodes = this._childNodesList;
    this._childrenList = null;
    this._childNodesList = null;
    try {
      modified.call(this);
    } finally {
      this._childrenList = children;
      this._childNodesList = childNodes;
    }
  };

  function noRangeIn(root: NodeImpl): boolean {
    for (const node of tree.treeIterator(root)) if (node._referencedRanges.size > 0) return false;
    return true;
  }
}
