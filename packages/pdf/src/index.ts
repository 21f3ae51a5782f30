export { PdfRenderer, DEFAULT_TIMEOUT_MS, type PdfOptions, type PdfRendererOptions } from './renderer.ts';
export { RenderTimeoutError, RenderCrashedError, RenderFailedError, BrowserLaunchError, RendererClosedError } from './errors.ts';
export { EgressProxy, systemResolve, type EgressDecision, type EgressProxyOptions, type Resolve } from './egress-proxy.ts';
export { defaultExecutablePath, chromiumArgs, launchChromium, HEADLESS_SHELL } from './chromium.ts';
export { printOptions, pageSizeOf, type PageSize } from './print-options.ts';
