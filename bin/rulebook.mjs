#!/usr/bin/env node
// The CLI is written in TypeScript: it runs from the plain JavaScript build when that is up to date
// (npm install builds it), else through tsx, so a clone needs no build step (bin/built.mjs).
import { importEntry } from './built.mjs';

const { main } = await importEntry('rulebook');
process.exitCode = await main(process.argv.slice(2));
