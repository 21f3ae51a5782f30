// A module resolution hook (node:module register): adds the "@folio/source" condition to every resolution.
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, '@folio/source'] });
}
