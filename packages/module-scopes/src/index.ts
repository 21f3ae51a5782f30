import { registerHooks } from 'node:module';
import { knownModule } from './scopes.ts';

/**
 * Makes a process's start cheap: imported first by each app's entry, before the app's own modules are loaded.
 *
 * To tell whether a `.js` file is ESM, Node's resolver reads the nearest package.json's "type" for every file it
 * resolves, and builds that package.json's object again each time (Node 24). drizzle-orm's package.json is 179 KB
 * of `exports`, and an app loads a hundred of its files and three hundred of @platformatic/kafka's: a large part of
 * an app's start, which every test stack, restart and rollout pays (`npm run bench:start` measures it).
 *
 * The hook answers only what Node would answer the same: a relative `./x.js` import, from a dependency's ESM file,
 * of a file whose folder's nearest package.json says `"type": "module"` — the format Node would detect. Each folder's
 * scope is read once. Everything else (bare names, `exports` maps, CommonJS, the project's own `.ts`) goes to Node.
 */
registerHooks({
  resolve(specifier, context, nextResolve) {
    const url = knownModule(specifier, context.parentURL, context.conditions);
    return url ? { url, format: 'module', shortCircuit: true } : nextResolve(specifier, context);
  },
});
