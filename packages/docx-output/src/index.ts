export { buildDocx } from './build-docx.ts';
export type { DocxInput, FetchedImage } from './docx-input.ts';
export { loadEach } from './image-loading.ts';
