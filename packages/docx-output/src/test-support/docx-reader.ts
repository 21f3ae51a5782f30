import JSZip from 'jszip';
import { JSDOM } from 'jsdom';
import mammoth from 'mammoth';

/** Reads a built DOCX back the way a word processor would, for assertions. */
export interface ReadDocx {
  /** mammoth's HTML, with Folio's own paragraph styles mapped to recognisable elements. */
  html: string;
  text: string;
  /** Names of the parts in the zip, e.g. `word/media/image1.png`. */
  parts: string[];
  part(name: string): Promise<string>;
  /** The body of word/document.xml. */
  documentXml: string;
}

const STYLE_MAP = [
  "p[style-name='Title'] => h1.doc-title:fresh",
  "p[style-name='Header Text'] => p.header-text:fresh",
  "p[style-name='Source'] => p.source:fresh",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Code Block'] => pre:separator('\\n')",
  "p[style-name='Caption'] => figcaption:fresh",
  "r[style-name='Inline Code'] => code",
  "r[style-name='Code Block Text'] => code",
];

export async function readDocx(buffer: Buffer): Promise<ReadDocx> {
  const [converted, raw, zip] = await Promise.all([
    mammoth.convertToHtml({ buffer }, { styleMap: STYLE_MAP }),
    mammoth.extractRawText({ buffer }),
    JSZip.loadAsync(buffer),
  ]);
  const part = async (name: string) => {
    const file = zip.file(name);
    if (!file) throw new Error(`no part ${name} in the docx`);
    return file.async('string');
  };
  return { html: converted.value, text: raw.value, parts: Object.keys(zip.files), part, documentXml: await part('word/document.xml') };
}

/** The sizes of the pictures in document order, in CSS pixels (a DOCX stores EMUs: 9525 per pixel). */
export function pictureSizes(documentXml: string): { width: number; height: number }[] {
  return [...documentXml.matchAll(/<wp:extent cx="(\d+)" cy="(\d+)"\/>/g)].map((m) => ({
    width: Number(m[1]) / 9525,
    height: Number(m[2]) / 9525,
  }));
}

/**
 * The title and creator from docProps/core.xml, read with a strict XML parser (jsdom's, saxes), which also fails
 * on anything Word would refuse, such as a control character.
 */
export async function coreProperties(docx: ReadDocx): Promise<{ title: string | null; creator: string | null }> {
  const xml = new JSDOM(await docx.part('docProps/core.xml'), { contentType: 'application/xml' }).window.document;
  const text = (name: string) => xml.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', name)[0]?.textContent ?? null;
  return { title: text('title'), creator: text('creator') };
}

/** Parses a part strictly as XML; throws when it is not well-formed. */
export async function parseXmlPart(docx: ReadDocx, name: string): Promise<Document> {
  return new JSDOM(await docx.part(name), { contentType: 'application/xml' }).window.document;
}
