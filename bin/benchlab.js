#!/usr/bin/env node
// The installed `benchlab` command: checks that this Node runs TypeScript sources as they are
// (type stripping, on by default from 22.18), then starts the CLI. Plain JS that any Node parses,
// so an older one gets this one line instead of a syntax error.

/* global process */
import { enableCompileCache } from 'node:module';
import { nodeVersionProblem } from '../scripts/require-node.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`benchlab: ${problem}\n`);
  process.exit(2);
}
// Node keeps each module's stripped TypeScript and compiled code on disk (in the temp dir, or
// NODE_COMPILE_CACHE), so every start after the first skips that work: about half of the time to
// the first line. Quiet when it cannot: a start without the cache only takes longer.
enableCompileCache?.();
await import('../main/cli/benchlab.ts');
