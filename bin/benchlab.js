#!/usr/bin/env node
// The installed `benchlab` command: checks that this Node runs TypeScript sources as they are
// (type stripping, on by default from 22.18), then starts the CLI. Plain JS that any Node parses,
// so an older one gets this one line instead of a syntax error.

/* global process */
import { nodeVersionProblem } from '../scripts/require-node.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`benchlab: ${problem}\n`);
  process.exit(2);
}
await import('../main/cli/benchlab.ts');
