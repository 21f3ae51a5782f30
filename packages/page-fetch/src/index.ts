export * from './fetch-page.ts';
export { BlockedAddressError } from '@folio/network-policy';
export { detectCharset } from './charset.ts';
