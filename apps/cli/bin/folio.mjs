#!/usr/bin/env node
// The `folio` command: runs the TypeScript CLI through tsx, so no build step stands between a change and its use.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
