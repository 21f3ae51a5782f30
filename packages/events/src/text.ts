/**
 * Folio's one rule for text that is not well-formed: U+0000 and lone surrogates each become U+FFFD REPLACEMENT
 * CHARACTER. It is what CommonMark prescribes for NUL and what the WHATWG decoders do with invalid UTF-8, so a user's
 * text means the same whichever way it arrived. Postgres refuses both in text and jsonb (22P05, 22021, 22P02), and
 * UTF-8 cannot carry a lone surrogate at all, so nothing that is stored or sent on may contain them.
 */
const NOT_WELL_FORMED = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wellFormedText(text: string): string {
  // Nearly all text is well-formed already: two native checks answer that without the regular expression.
  if (!text.includes('\u0000') && (text as string & { isWellFormed(): boolean }).isWellFormed()) return text;
  return text.replace(NOT_WELL_FORMED, '\uFFFD');
}

/**
 * The same rule applied to every string inside a JSON-like value (object keys included; null-prototype objects too).
 * A value with nothing to mend is returned as it is, not copied: replays and projections pass every event through here.
 */
export function wellFormedValue<T>(value: T): T {
  if (typeof value === 'string') return wellFormedText(value) as T;
  if (Array.isArray(value)) {
    let mended: unknown[] | undefined;
    value.forEach((item, i) => {
      const well = wellFormedValue(item);
      if (well !== item) (mended ??= [...value])[i] = well;
    });
    return (mended ?? value) as T;
  }
  if (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const entries = Object.entries(value);
    const mended = entries.map(([k, v]) => [wellFormedText(k), wellFormedValue(v)] as const);
    if (mended.every(([k, v], i) => k === entries[i]![0] && v === entries[i]![1])) return value;
    return Object.fromEntries(mended) as T;
  }
  return value;
}
