// Stores server CPU profiles for seeded runs, straight through the profiles repository, for the
// e2e tests and any test that needs a profile without capturing one: a Node server that reads its
// files synchronously (its time in fs.readFileSync), the same server made asynchronous (its time
// in the event loop's poll and in JSON), and a run whose host had no profiler.

import type { ProfileTool } from '../../app/profiles/profiles.ts';
import { foldedCounts } from '../../app/profiles/profiles.ts';
import { ProfilesRepository } from '../../main/services/profiles/profiles-repository.ts';
import type { Db } from '../../main/services/store/database.ts';

/** A synchronous Node server: most samples in fs.readFileSync under the request handler. */
export const SYNC_PROFILE = [
  'node;processTicksAndRejections;emit;handleRequest;fs.readFileSync;tryReadSync;binding.read 620',
  'node;processTicksAndRejections;emit;handleRequest;fs.readFileSync;tryStatSync 80',
  'node;processTicksAndRejections;emit;handleRequest;JSON.stringify 120',
  'node;processTicksAndRejections;emit;handleRequest;writeHead 40',
  'node;uv_run;uv__io_poll;epoll_wait 60',
  'node;(garbage collector) 80',
].join('\n');

/** The same server reading asynchronously: the time moved to the event loop and to JSON. */
export const ASYNC_PROFILE = [
  'node;processTicksAndRejections;emit;handleRequest;JSON.stringify 260',
  'node;processTicksAndRejections;emit;handleRequest;writeHead 90',
  'node;processTicksAndRejections;afterReadFile;fs.readFile;binding.read 150',
  'node;uv_run;uv__io_poll;epoll_wait 700',
  'node;(garbage collector) 100',
].join('\n');

export function seedProfile(db: Db, runId: number, folded: string, tool: ProfileTool = 'v8'): void {
  const { samples, stacks } = foldedCounts(folded);
  new ProfilesRepository(db).save(runId, { status: 'captured', folded, facts: { tool, runtime: tool === 'v8' ? 'node' : tool === 'perf' ? 'native' : 'jvm', samples, stacks, intervalUs: 1000, durationMs: 30_000, pid: 4242 } });
}

export function seedMissingProfile(db: Db, runId: number, reason: string): void {
  new ProfilesRepository(db).save(runId, { status: 'missing', reason, tool: 'perf', runtime: 'native' });
}
