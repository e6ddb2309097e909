#!/usr/bin/env node
// The installed `benchlab` command: checks that this Node runs TypeScript sources as they are
// (type stripping, on by default from 22.18), then starts the CLI. Plain JS that any Node parses,
// so an older one gets this one line instead of a syntax error.

/* global process */
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(`benchlab: needs Node.js 22.18 or newer (this is ${process.versions.node})\n`);
  process.exit(2);
}
await import('../main/cli/benchlab.ts');
