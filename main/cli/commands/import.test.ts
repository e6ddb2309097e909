// `benchlab import` as a user runs it: `node main/cli/benchlab.ts import …` on a temporary data dir.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../services/store/database.ts';
import { RunsRepository } from '../../services/runs/runs-repository.ts';
import { SamplesRepository } from '../../services/runs/samples-repository.ts';
import { SessionsRepository } from '../../services/runs/sessions-repository.ts';
import { scratchCli } from '../../../tests/support/cli-process.ts';

const { dir, run } = scratchCli('benchlab-cli-import-');
const fixture = (name: string) => join(import.meta.dirname, '../../../tests/fixtures/imports', name);

const cli = (dataDir: string, ...args: string[]) => run(['import', '--data-dir', dataDir, ...args]);

/** What the data dir holds once the CLI has exited: sessions with their runs and stored seconds. */
function stored(dataDir: string) {
  const { db } = openDatabase(dataDir);
  try {
    const runs = new RunsRepository(db);
    const samples = new SamplesRepository(db);
    return new SessionsRepository(db).list().map((session) => ({
      session,
      runs: runs.forSession(session.id).map((run) => ({ run, seconds: samples.forRun(run.id).length })),
    }));
  } finally {
    db.close();
  }
}

test('a per-request file becomes one session with its seconds; the name and tags as given', () => {
  const dataDir = join(dir, 'vegeta');
  const result = cli(dataDir, fixture('vegeta-results.csv'), '--format', 'vegeta', '--name', 'vegeta smoke', '--tag', 'imported', '--tag', 'smoke');
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'session 1 “vegeta smoke”: 3 requests, 0.8 req/s, p99 5.00 ms\n');
  const [entry] = stored(dataDir);
  assert.deepEqual([entry!.session.name, entry!.session.tags, entry!.session.status], ['vegeta smoke', ['imported', 'smoke'], 'completed']);
  assert.equal(entry!.runs[0]!.seconds, 4);
  assert.equal(entry!.runs[0]!.run.summary!.books!.scheduled, 5);
});

test('--json prints the stored session with its provenance', () => {
  const result = cli(join(dir, 'json'), fixture('ab-hello.txt'), '--format', 'ab', '--json');
  assert.equal(result.code, 0, result.stderr);
  const session = JSON.parse(result.stdout) as { name: string; config: { imported: { format: string; tool: { version: string } } } };
  assert.equal(session.name, 'ab-hello.txt (imported from ab)');
  assert.deepEqual([session.config.imported.format, session.config.imported.tool.version], ['ab', '2.3']);
});

test('bad input exits 2 with one clear line and stores nothing', () => {
  const dataDir = join(dir, 'bad');
  const wrong = cli(dataDir, fixture('k6-points.ndjson'), '--format', 'wrk');
  assert.equal(wrong.code, 2);
  assert.equal(wrong.stderr, "benchlab import: k6-points.ndjson:1: this looks like k6's --out json NDJSON, not wrk's text output: import it as k6\n");
  const missing = cli(dataDir, fixture('hey.csv'));
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--format is required .*; hey\.csv looks like hey's CSV: --format hey\nsee: benchlab import --help\n$/);
  assert.equal(cli(dataDir, fixture('hey.csv'), '--format', 'curl').code, 2);
  assert.equal(cli(dataDir, join(dir, 'absent.csv'), '--format', 'hey').code, 2);
  assert.equal(cli(dataDir, fixture('hey.csv'), '--format', 'hey', '--name', ' ').code, 2);
  const truncated = join(dir, 'truncated.jtl');
  writeFileSync(truncated, 'timeStamp,elapsed,responseCode\n1700000000000,12,200\n1700000000400,2');
  const cut = cli(dataDir, truncated, '--format', 'jmeter');
  assert.equal(cut.code, 2);
  assert.equal(cut.stderr, 'benchlab import: truncated.jtl:3: the line has 2 fields, too few for responseCode: truncated?\n');
  assert.deepEqual(stored(dataDir), []);
});

test('a large per-request file is streamed: 300,000 requests over 300 s and a few ms', () => {
  const file = join(dir, 'large.csv');
  const lines = ['response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset'];
  for (let i = 0; i < 300_000; i++) lines.push(`0.00${(i % 9) + 1}0,0,0,0,0,0,200,${(i / 1000).toFixed(4)}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const dataDir = join(dir, 'large');
  const result = cli(dataDir, file, '--format', 'hey');
  assert.equal(result.code, 0, result.stderr);
  const [entry] = stored(dataDir);
  // The last requests, sent at 299.999 s, are answered in second 300.
  assert.equal(entry!.runs[0]!.seconds, 301);
  assert.equal(entry!.runs[0]!.run.summary!.requests, 300_000);
});

const tool = (name: string) => join(import.meta.dirname, '../../../tests/fixtures/imports/tools', name);

function benchlab(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [join(import.meta.dirname, '../benchlab.ts'), ...args, '--data-dir', dataDir], { encoding: 'utf8', env: { ...process.env, HOME: dir, BENCHLAB_DATA_DIR: join(dir, 'never-used') } });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/** The FAILED column of a table's row whose first cells match `row`. */
function failedOf(table: string, row: RegExp): string {
  const lines = table.split('\n');
  const header = lines.find((line) => / FAILED /.test(line))!;
  const line = lines.find((candidate) => row.test(candidate))!;
  return line.slice(header.indexOf('FAILED')).trim().split(/\s+/)[0]!;
}

test("hey's and ab -g's imports: sessions show and compare print the same failed figure (the count for hey, — for ab's -g)", () => {
  const dataDir = join(dir, 'agree');
  assert.equal(cli(dataDir, tool('hey.csv'), '--format', 'hey').code, 0);
  assert.equal(cli(dataDir, tool('ab-g.tsv'), '--format', 'ab', '--report', tool('ab-g-run.txt')).code, 0);
  const comparison = benchlab(dataDir, 'compare', '1', '2');
  const non2xx = readFileSync(tool('hey.csv'), 'utf8').trim().split('\n').slice(1).filter((line) => !line.split(',')[6]!.startsWith('2')).length;
  assert.ok(non2xx > 0);
  assert.equal(failedOf(benchlab(dataDir, 'sessions', 'show', '1'), /^1\s+imported:hey/), String(non2xx));
  assert.equal(failedOf(comparison, /^1 hey\.csv/), String(non2xx));
  assert.equal(failedOf(benchlab(dataDir, 'sessions', 'show', '2'), /^1\s+imported:ab/), '-');
  assert.equal(failedOf(comparison, /^2 ab-g\.tsv/), '-');
});

test("a file cut inside its last line, or an ab report of another run, stores nothing and says why in one line", () => {
  const dataDir = join(dir, 'cut');
  const text = readFileSync(tool('vegeta.csv'), 'utf8');
  const cutFile = join(dir, 'vegeta-cut.csv');
  writeFileSync(cutFile, text.slice(0, text.length - 40));
  const lines = text.trimEnd().split('\n').length;
  const cut = cli(dataDir, cutFile, '--format', 'vegeta');
  assert.equal(cut.code, 2);
  assert.equal(cut.stderr, `benchlab import: vegeta-cut.csv:${lines}: the file ends inside this line, without its line break: it was cut short (vegeta's CSV results; nothing is stored)\n`);
  const other = cli(dataDir, tool('ab-g.tsv'), '--format', 'ab', '--report', tool('ab-hello.txt'));
  assert.equal(other.code, 2);
  assert.match(other.stderr, /^benchlab import: ab-g\.tsv: the report counts 2000 complete requests, the -g file 3000: they are not of the same run\n$/);
  assert.equal(cli(dataDir, tool('hey.csv'), '--format', 'hey', '--report', tool('ab-hello.txt')).code, 2);
  assert.deepEqual(stored(dataDir), []);
});
