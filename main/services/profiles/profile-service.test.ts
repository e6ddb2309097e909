// Tests of the stored profiles on a real SQLite file: an empty store answers, a captured profile
// round-trips its folded text and facts (stored compressed), missing and off entries keep their
// reason, a run's deletion takes its profile, and the export formats.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ApiError } from '../../../app/common/errors.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { SessionsRepository } from '../runs/sessions-repository.ts';
import { openDatabase, type Db } from '../store/database.ts';
import { ProfileService } from './profile-service.ts';
import { ProfilesRepository } from './profiles-repository.ts';

let dir: string;
let db: Db;
let profiles: ProfileService;
let sessionId: number;
let runIds: number[];

const FOLDED = ['main;serve;handle;hash 40', 'main;serve;handle;parse 10', 'main;idle 50'].join('\n') + '\n';
const FACTS = { tool: 'v8', runtime: 'node', samples: 100, stacks: 3, intervalUs: 1000, durationMs: 10_000, pid: 4242 } as const;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-profiles-test-'));
  db = openDatabase(dir).db;
  profiles = new ProfileService({ repository: new ProfilesRepository(db) });
  sessionId = new SessionsRepository(db).create({ name: 'profiled' }).id;
  const runs = new RunsRepository(db);
  runIds = [0, 1, 2].map((ordinal) => runs.create({ sessionId, ordinal, templateId: 'node', variant: 'async' }));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ProfileService', () => {
  test('an empty store answers: no entries, and a run without a profile is not found', () => {
    assert.deepEqual(profiles.list(sessionId), []);
    assert.throws(() => profiles.get(runIds[0]!), (error) => error instanceof ApiError && error.code === 'not_found');
    assert.throws(() => profiles.export(runIds[0]!, 'folded'), (error) => error instanceof ApiError && error.code === 'not_found');
  });

  test('each run keeps its outcome: captured with its folded text and facts, missing and off with their reasons', () => {
    profiles.record(runIds[0]!, { status: 'captured', folded: FOLDED, facts: FACTS });
    profiles.record(runIds[1]!, { status: 'missing', reason: 'perf is not installed on lab-server: install linux-perf', tool: 'perf', runtime: 'native' });
    profiles.record(runIds[2]!, { status: 'off', reason: 'profiling switched off for this run', tool: null, runtime: null });
    const entries = profiles.list(sessionId);
    assert.deepEqual(
      entries.map((entry) => [entry.ordinal, entry.status, entry.tool, entry.samples]),
      [
        [0, 'captured', 'v8', 100],
        [1, 'missing', 'perf', null],
        [2, 'off', null, null],
      ],
    );
    assert.match(entries[1]!.reason ?? '', /install linux-perf/);
    const profile = profiles.get(runIds[0]!);
    assert.equal(profile.folded, FOLDED);
    assert.equal(profile.facts.samples, 100);
    assert.equal(profile.facts.pid, 4242);
    assert.ok(profile.facts.storedBytes > 0 && profile.facts.storedBytes < Buffer.byteLength(FOLDED) * 2);
    assert.throws(() => profiles.get(runIds[1]!), (error) => error instanceof ApiError && error.code === 'not_found');
  });

  test('exports the folded text as is, and speedscope JSON whose weights add up to the samples', () => {
    profiles.record(runIds[0]!, { status: 'captured', folded: FOLDED, facts: FACTS });
    assert.equal(profiles.export(runIds[0]!, 'folded').content, FOLDED);
    const file = profiles.export(runIds[0]!, 'speedscope');
    assert.match(file.fileName, /\.speedscope\.json$/);
    const document = JSON.parse(file.content) as { shared: { frames: { name: string }[] }; profiles: { samples: number[][]; weights: number[] }[] };
    const [sampled] = document.profiles;
    assert.equal(sampled!.weights.reduce((sum, weight) => sum + weight, 0), 100);
    assert.deepEqual(sampled!.samples[0]!.map((at) => document.shared.frames[at]!.name), ['main', 'serve', 'handle', 'hash']);
  });

  test("deleting the session takes its runs' profiles with it", () => {
    profiles.record(runIds[0]!, { status: 'captured', folded: FOLDED, facts: FACTS });
    new SessionsRepository(db).delete(sessionId);
    assert.throws(() => profiles.get(runIds[0]!), (error) => error instanceof ApiError && error.code === 'not_found');
  });
});
