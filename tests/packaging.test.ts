// The desktop package carries what the back end reads at run time from its resources folder: every
// folder of resources/ (presets, studies, the payload), the server templates, the agent bundle and the native engine's binaries.
// A folder missing from electron-builder's extraResources works in development and fails only in
// the packaged app, so it is checked here.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './support/web-app.ts';

test('every runtime folder is copied into the package', () => {
  const config = readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8');
  const extra = config.slice(config.indexOf('extraResources:'));
  const copied = [...extra.matchAll(/- from: (\S+)\s*\n\s+to: (\S+)/g)].map((match) => `${match[1]} -> ${match[2]}`);
  const runtimeFolders = readdirSync(join(REPO_ROOT, 'resources'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  assert.ok(runtimeFolders.includes('studies') && runtimeFolders.includes('presets'));
  for (const folder of runtimeFolders) assert.ok(copied.includes(`resources/${folder}/ -> ${folder}`), `resources/${folder}/ is in extraResources`);
  assert.ok(copied.includes('server-templates/ -> server-templates'));
  assert.ok(copied.includes('out/agent/ -> agent'));
  assert.ok(copied.includes('out/engine/ -> engine'), 'the native engine binaries (npm run build:engine) are in the package');
});
