// Figure: opening a comparison of 10 stored sessions of 3,600 samples each (goal: under 300 ms) —
// the store read, the model (tables, timelines, distributions, host diff, bootstrap intervals) and
// the JSON that crosses to the UI — on a real SQLite file seeded through the repositories.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ComparisonService } from '../main/services/sessions/comparison-service.ts';
import { openDatabase } from '../main/services/store/database.ts';
import { SessionsRepository } from '../main/services/runs/sessions-repository.ts';
import { createSeeder } from '../tests/support/session-seed.ts';

export function benchComparisonOpen(sessionCount = 10, seconds = 3600, rounds = 7) {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-bench-compare-'));
  const { db } = openDatabase(dir);
  try {
    const seeder = createSeeder(db);
    const ids = Array.from({ length: sessionCount }, (_, i) => seeder.session({ name: `session ${i + 1}`, rps: 5000 + i * 100, latencyUs: 1000 + i * 50, seconds }).sessionId);
    db.close();
    // A fresh connection: the first open pays for a cold statement cache, as after a restart.
    const reopened = openDatabase(dir).db;
    try {
      const service = new ComparisonService({ db: reopened, sessions: new SessionsRepository(reopened) });
      const times: number[] = [];
      let jsonBytes = 0;
      for (let round = 0; round < rounds; round++) {
        const started = performance.now();
        const comparison = service.open({ sessionIds: ids });
        jsonBytes = JSON.stringify(comparison).length;
        times.push(performance.now() - started);
      }
      const sorted = [...times].sort((a, b) => a - b);
      return { sessions: sessionCount, samplesPerSession: seconds, firstMs: times[0]!, medianMs: sorted[sorted.length >> 1]!, maxMs: sorted.at(-1)!, jsonBytes };
    } finally {
      reopened.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
