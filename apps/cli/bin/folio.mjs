#!/usr/bin/env node
// The `folio` command: Node runs the TypeScript CLI as it is (stripping its types), so no build step stands between a
// change and its use.
import { registerHooks } from 'node:module';

// Inside the monorepo, @folio/sdk resolves to its TypeScript sources (its "@folio/source" export condition) rather
// than to a dist/ that only `npm pack` builds; TypeScript is told the same by tsconfig.base.json's customConditions.
// A synchronous hook, in this thread: no loader thread to start for one condition.
registerHooks({
  resolve: (specifier, context, nextResolve) =>
    nextResolve(specifier, { ...context, conditions: [...context.conditions, '@folio/source'] }),
});
// `folio convert` and `folio jobs` talk to the API only: their entry starts without the operators' Postgres and Kafka.
const userCommands = ['convert', 'jobs'].includes(process.argv[2] ?? '');
await import(userCommands ? '../src/user-commands.ts' : '../src/main.ts');
