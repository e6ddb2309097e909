// `npm run build:agent`: bundles agent/ (with app/'s protocol and hdr-histogram-js)
// into ONE self-contained ES module, out/agent/benchlab-agent.mjs, for Node 18 or newer on any
// host: nothing is installed there, the file is uploaded and run. Prints the file's size and hash.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'rolldown';

export const AGENT_BUNDLE = resolve(import.meta.dirname, '..', 'out', 'agent', 'benchlab-agent.mjs');

export async function buildAgent(): Promise<{ file: string; bytes: number; sha256: string }> {
  await build({
    input: resolve(import.meta.dirname, '..', 'agent', 'main.ts'),
    platform: 'node',
    logLevel: 'warn',
    onLog(level, log, report) {
      // hdr-histogram-js hides require("zlib") from bundlers in an eval it never reaches in Node.
      if (log.code === 'EVAL') return;
      report(level, log);
    },
    output: { file: AGENT_BUNDLE, format: 'esm', minify: true },
    transform: { target: 'node18' },
  });
  const content = readFileSync(AGENT_BUNDLE);
  return { file: AGENT_BUNDLE, bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}

if (import.meta.main) {
  const result = await buildAgent();
  console.log(`agent bundle: ${result.file} (${(result.bytes / 1024).toFixed(0)} KB, sha256 ${result.sha256.slice(0, 12)})`);
}
