export { buildDocx } from './build-docx.ts';
export type { DocxInput, FetchedImage } from './docx-input.ts';
