// Tests of the study catalog: the shipped studies load with each seed's published figures, and a
// broken or misplaced figures file is listed as broken without losing its study.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { builtInStudiesDir, loadStudies } from './study-catalog.ts';

const STUDIES_DIR = builtInStudiesDir()!;
const PUBLISHED_DIR = join(STUDIES_DIR, 'published');

describe('the study catalog', () => {
  test('the catalog gives each study its published figures, and lists a broken file without losing its study', async () => {
    const shippedCatalog = await loadStudies(STUDIES_DIR);
    assert.deepEqual(shippedCatalog.broken, []);
    assert.equal(shippedCatalog.studies.find((study) => study.id === 'ab-fixed-count')?.published?.tool, 'ab 2.3');
    assert.equal(shippedCatalog.studies.find((study) => study.id === 'techempower')?.published, null);
    // Folded text never keeps a hyphen cut from its word by a line break ("post- select").
    for (const study of shippedCatalog.studies) assert.doesNotMatch(JSON.stringify(study), /[a-z]- [a-z]/, study.id);

    const dir = mkdtempSync(join(tmpdir(), 'benchlab-published-'));
    try {
      cpSync(STUDIES_DIR, dir, { recursive: true });
      writeFileSync(join(dir, 'published', 'ab-fixed-count.yaml'), 'study: ab-fixed-count\ntool: ab\n');
      writeFileSync(join(dir, 'published', 'wrk-connections.yaml'), readFileSync(join(PUBLISHED_DIR, 'ab-fixed-count.yaml'), 'utf8'));
      const catalog = await loadStudies(dir);
      assert.equal(catalog.studies.find((study) => study.id === 'ab-fixed-count')?.published, null, 'the study stays, without its figures');
      assert.deepEqual(catalog.broken.map((broken) => broken.file).sort(), ['published/ab-fixed-count.yaml', 'published/wrk-connections.yaml']);
      assert.match(catalog.broken.find((broken) => broken.file === 'published/wrk-connections.yaml')!.error, /for "wrk-connections"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('every study file says in a comment what the 2-core lab made it scale, and each seed’s tool keeps its own timeout', async () => {
    const files = readdirSync(STUDIES_DIR).filter((file) => file.endsWith('.yaml'));
    assert.ok(files.length >= 5);
    for (const file of files) {
      assert.match(readFileSync(join(STUDIES_DIR, file), 'utf8'), /^# Scaled for the 2-core lab: \S.*$/m, `${file} has a "# Scaled for the 2-core lab:" line`);
    }
    // Each tool's own request timeout, so answers the seed waited for are not cut into timeouts:
    // ab and siege 30 s, wrk 2 s, Gatling 60 s; loadtest has none (the seed's slowest answer took 26 s).
    const { studies } = await loadStudies(STUDIES_DIR);
    const timeout = (id: string) => studies.find((study) => study.id === id)?.profile.request.timeoutMs;
    assert.equal(timeout('ab-fixed-count'), 30_000);
    assert.equal(timeout('wrk-connections'), 2_000);
    assert.equal(timeout('gatling-file'), 60_000);
    assert.ok(timeout('loadtest-sleep')! > 26_000, `loadtest: ${timeout('loadtest-sleep')} ms`);
    for (const study of studies.filter((candidate) => candidate.id.startsWith('siege'))) assert.equal(study.profile.request.timeoutMs, 30_000, study.id);
    // And what the tool did at it: wrk counts a late answer and keeps its connection; the others close it.
    for (const study of studies) assert.equal(study.profile.request.onTimeout ?? 'close', study.id === 'wrk-connections' ? 'wait' : 'close', study.id);
    // A warm-up where the seed had one (wrk's 10 connections for 10 s before the sweep), and where
    // the lab needs one and says so (loadtest's cold JVM beside its client on 2 cores).
    assert.equal(studies.find((study) => study.id === 'wrk-connections')?.profile.warmupS, 10);
    assert.equal(studies.find((study) => study.id === 'loadtest-sleep')?.profile.warmupS, 5);
    assert.match(readFileSync(join(STUDIES_DIR, 'loadtest-sleep.yaml'), 'utf8'), /^# Scaled for the 2-core lab: a 5 s warm-up/m);
    for (const id of ['ab-fixed-count', 'gatling-file', 'siege-mixed']) assert.equal(studies.find((study) => study.id === id)?.profile.warmupS, 0, id);
  });
});
