import { JSDOM, VirtualConsole } from 'jsdom';

/**
 * One jsdom window for the whole process, created on first use and reused: building a window costs milliseconds and
 * megabytes, parsing a document inside an existing one costs neither. The window never runs script and never loads a
 * resource (jsdom's defaults: `runScripts` and `resources` unset), and its console is silent so that pages whose CSS
 * jsdom cannot parse do not flood the service's logs.
 */
let shared: JSDOM['window'] | undefined;

export function sharedWindow(): JSDOM['window'] {
  shared ??= new JSDOM('<!DOCTYPE html><html><head></head><body></body></html>', {
    virtualConsole: new VirtualConsole(),
  }).window;
  return shared;
}

