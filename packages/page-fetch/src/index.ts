export * from './fetch-page.ts';
export { BlockedAddressError } from './guarded-agent.ts';
export { detectCharset } from './charset.ts';
