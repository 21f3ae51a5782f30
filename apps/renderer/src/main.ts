// The renderer process's entry. The module-scopes hook goes in first: it resolves the dependencies' modules as they are
// loaded, so it must be registered before the renderer's own imports are.
import '@folio/module-scopes';

await import('./service.ts');
