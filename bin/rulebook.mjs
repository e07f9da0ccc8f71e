#!/usr/bin/env node
// The CLI is written in TypeScript; tsx compiles it on the fly so a clone needs no build step.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
