import { randomBytes } from 'node:crypto';

/**
 * Base64 `data:image/*` addresses set aside while the HTML is parsed and sanitised.
 *
 * jsdom and DOMPurify walk every character of an attribute several times (tokenizer, URL checks, serializer): an
 * article with a megabyte of embedded images takes ten times longer to sanitise than the same article without them,
 * and the interface lets html carry up to 50 MB of them. The addresses are swapped for short tokens before parsing
 * and swapped back afterwards:
 * - where a token is a whole attribute value, it is put back *before* the URL policy judges the attribute, so an
 *   embedded image is judged exactly as if it had never been stashed (`<a href="data:…">` still goes);
 * - anywhere else (text, say) the remaining tokens are put back in the serialized output. That is safe in any HTML
 *   context because what is put back is only `data:image/<type>;…;base64,` and base64 characters: no quote, `<`, `&`
 *   or space can come out of it.
 * A token carries a random nonce per call, so content cannot forge one to pull in another call's bytes.
 */
const DATA_IMAGE_BASE64 = /data:image\/[a-z0-9.+-]+(?:;[a-z0-9.+-]+=[a-z0-9.+-]+)*;base64,[a-z0-9+/]+={0,2}/gi;

/** Below this size an address is cheaper to parse than to stash. */
const MIN_STASHED_LENGTH = 512;

export class DataImageStash {
  private readonly nonce = randomBytes(6).toString('hex');
  private readonly stashed: string[] = [];
  private readonly token = new RegExp(`folio-stash-${this.nonce}-(\\d+)`, 'g');
  private readonly wholeToken = new RegExp(`^\\s*folio-stash-${this.nonce}-(\\d+)\\s*$`);

  /** `html` with every long base64 image address replaced by a token. */
  stash(html: string): string {
    return html.replace(DATA_IMAGE_BASE64, (address) => {
      if (address.length < MIN_STASHED_LENGTH) return address;
      this.stashed.push(address);
      return `folio-stash-${this.nonce}-${this.stashed.length - 1}`;
    });
  }

  /** The original address when `value` is exactly one of this stash's tokens, otherwise `value` itself. */
  restoreWhole(value: string): string {
    if (this.stashed.length === 0) return value;
    const match = this.wholeToken.exec(value);
    return match ? (this.stashed[Number(match[1])] ?? value) : value;
  }

  /** `html` with every token left in it replaced by its address. */
  restoreAll(html: string): string {
    if (this.stashed.length === 0) return html;
    return html.replace(this.token, (token, index: string) => this.stashed[Number(index)] ?? token);
  }

  get size(): number {
    return this.stashed.length;
  }
}
