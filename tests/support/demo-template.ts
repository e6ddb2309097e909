// A minimal valid template manifest whose one build step runs a Node script in the template's
// folder and produces out/app.jar: for tests of local builds and their workspaces.

import assert from 'node:assert/strict';
import { parseManifest, type Manifest } from '../../app/templates/templates.ts';

export function demoBuildManifest(script: string, inputs: string[] | undefined): Manifest {
  const parsed = parseManifest(
    JSON.stringify({
      schema: 1,
      id: 'demo',
      name: 'Demo',
      description: 'A demo template',
      requires: [],
      endpoints: ['health'],
      variants: [{ id: 'only', name: 'only', description: 'the one' }],
      defaultVariant: 'only',
      build: [{ name: 'compile', command: [process.execPath, '-e', script], artifacts: ['out/app.jar'], ...(inputs ? { inputs } : {}) }],
      files: ['src/a.txt'],
      start: ['{dir}/out/app.jar'],
      readiness: { path: '/health', timeoutSeconds: 5 },
      stop: { signal: 'TERM', graceSeconds: 1 },
    }),
    'demo',
  );
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.manifest;
}
