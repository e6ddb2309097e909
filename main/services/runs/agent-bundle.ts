// Finds the agent bundle this Benchlab uploads to hosts: BENCHLAB_AGENT_BUNDLE, the packaged app's
// resources/agent folder, or out/agent in a checkout (built there on first use if missing, so
// `npm start` works without a separate build step). Reads it once, with its sha256.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ApiError } from '../../../app/common/errors.ts';

export const AGENT_FILE_NAME = 'benchlab-agent.mjs';
const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface AgentBundle {
  file: string;
  bytes: Buffer;
  sha256: string;
}

let cached: Promise<AgentBundle> | null = null;

function candidates(): string[] {
  const list: string[] = [];
  if (process.env.BENCHLAB_AGENT_BUNDLE) list.push(resolve(process.env.BENCHLAB_AGENT_BUNDLE));
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) list.push(join(resourcesPath, 'agent', AGENT_FILE_NAME));
  list.push(join(REPO_ROOT, 'out', 'agent', AGENT_FILE_NAME));
  return list;
}

async function load(): Promise<AgentBundle> {
  let file = candidates().find((path) => existsSync(path));
  if (!file) {
    const builder = join(REPO_ROOT, 'scripts', 'build-agent.ts');
    if (!existsSync(builder)) throw new ApiError('unavailable', `the load agent (${AGENT_FILE_NAME}) is missing from this installation`);
    const { buildAgent } = (await import(builder)) as { buildAgent: () => Promise<{ file: string }> };
    file = (await buildAgent()).file;
  }
  const bytes = readFileSync(file);
  return { file, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export function agentBundle(): Promise<AgentBundle> {
  cached ??= load().catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}
