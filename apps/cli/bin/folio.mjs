#!/usr/bin/env node
// The `folio` command: runs the TypeScript CLI through tsx, so no build step stands between a change and its use.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

// Inside the monorepo, @folio/sdk resolves to its TypeScript sources (its "@folio/source" export condition) rather
// than to a dist/ that only `npm pack` builds; TypeScript is told the same by tsconfig.base.json's customConditions.
registerHooks('./source-condition.mjs', import.meta.url);
register();
// `folio convert` and `folio jobs` talk to the API only: their entry starts without the operators' Postgres and Kafka.
const userCommands = ['convert', 'jobs'].includes(process.argv[2] ?? '');
await import(userCommands ? '../src/user-commands.ts' : '../src/main.ts');
