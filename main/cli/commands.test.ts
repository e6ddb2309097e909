// The CLI as a user runs it: `node main/cli/benchlab.ts …` on a temporary data dir. Help for every
// command, exit codes for bad input, and the hosts, sessions and compare commands on a seeded store.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { seedStore } from '../../tests/support/session-seed.ts';
import { COMMANDS } from './commands/index.ts';
import { scratchCli } from '../../tests/support/cli-process.ts';

const { dir, run } = scratchCli('benchlab-cli-commands-');

const cli = (dataDir: string | null, ...args: string[]) => run([...(dataDir ? ['--data-dir', dataDir] : []), ...args]);

describe('help and bad input', () => {
  test('benchlab --help lists every command with its summary', () => {
    const help = cli(null, '--help');
    assert.equal(help.code, 0);
    for (const command of COMMANDS) assert.match(help.stdout, new RegExp(`\\n {2}${command.name} +${command.summary.replace(/[()[\]|.*+?^$\\]/g, '\\$&')}\\n`));
  });

  test('every command has --help with its usage, each of its options, and an example', () => {
    for (const command of COMMANDS) {
      const help = cli(null, command.name, '--help');
      assert.equal(help.code, 0, `${command.name}: ${help.stderr}`);
      assert.match(help.stdout, /^usage: benchlab /m, command.name);
      assert.match(help.stdout, /\nexample:\n {2}benchlab /, command.name);
      for (const option of Object.keys(command.options ?? {})) assert.ok(help.stdout.includes(`--${option}`), `${command.name} --help does not mention --${option}`);
    }
  });

  test('an unknown command or option is one line and a hint, exit 2', () => {
    const unknownCommand = cli(null, 'explode');
    assert.equal(unknownCommand.code, 2);
    assert.equal(unknownCommand.stderr, 'benchlab: unknown command "explode"\nsee: benchlab --help\n');
    const unknownOption = cli(join(dir, 'data-bad'), 'hosts', 'list', '--bogus');
    assert.equal(unknownOption.code, 2);
    assert.equal(unknownOption.stderr, 'benchlab hosts: unknown option --bogus\nsee: benchlab hosts --help\n');
    const unknownVerb = cli(join(dir, 'data-bad'), 'sessions', 'frobnicate');
    assert.equal(unknownVerb.code, 2);
    assert.match(unknownVerb.stderr, /unknown action "frobnicate": one of list, show, tag, rm, export/);
    assert.equal(cli(null).code, 2, 'no command at all is bad input');
  });
});

describe('hosts', () => {
  const dataDir = join(dir, 'hosts-data');

  test('add, then list as a table and as JSON; --data-dir may come after the command', () => {
    const added = cli(dataDir, 'hosts', 'add', 'srv', 'bench@10.231.0.3:2222', '--key', '/keys/id_ed25519');
    assert.equal(added.code, 0, added.stderr);
    const table = cli(null, 'hosts', 'list', '--data-dir', dataDir);
    assert.equal(table.code, 0, table.stderr);
    assert.deepEqual(table.stdout.split('\n')[0]!.split(/\s{2,}/), ['NAME', 'LOGIN', 'AUTH', 'HOST KEY', 'VIA']);
    assert.match(table.stdout, /^srv +bench@10\.231\.0\.3:2222 +key \/keys\/id_ed25519 +not pinned$/m);
    const json = JSON.parse(cli(dataDir, 'hosts', 'list', '--json').stdout) as Array<{ name: string; port: number; auth: string; keyPath: string }>;
    assert.deepEqual(
      json.map(({ name, port, auth, keyPath }) => ({ name, port, auth, keyPath })),
      [{ name: 'srv', port: 2222, auth: 'key', keyPath: '/keys/id_ed25519' }],
    );
  });

  test('a bad login or a taken name changes nothing, exit 2', () => {
    const badPort = cli(dataDir, 'hosts', 'add', 'other', 'bench@10.231.0.4:70000');
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /port: must be between 1 and 65535/);
    const taken = cli(dataDir, 'hosts', 'add', 'srv', 'bench@10.231.0.5');
    assert.equal(taken.code, 2);
    assert.equal((JSON.parse(cli(dataDir, 'hosts', 'list', '--json').stdout) as unknown[]).length, 1);
  });
});

describe('sessions and compare on a seeded store', () => {
  const dataDir = join(dir, 'sessions-data');
  const ids: Record<string, number> = {};

  before(() =>
    seedStore(dataDir, (seeder) => {
      ids.fast = seeder.session({ name: 'node async', rps: 20_000, latencyUs: 900, seconds: 4, tags: ['nightly'], variant: 'async', histogramPool: 4 }).sessionId;
      ids.slow = seeder.session({ name: 'node sync', rps: 10_000, latencyUs: 1800, seconds: 4, tags: ['nightly'], variant: 'sync', startedAt: new Date('2026-03-02T10:00:00Z'), histogramPool: 4 }).sessionId;
      ids.sweep = seeder.session({ name: 'sweep', rps: 8_000, latencyUs: 1500, seconds: 3, sweep: [10, 50], startedAt: new Date('2026-03-03T10:00:00Z'), histogramPool: 4 }).sessionId;
      // Its last step served the most but failed: never the best step, never the best in a comparison.
      ids.unsampled = seeder.session({ name: 'no server sampled', rps: 5_000, latencyUs: 900, seconds: 2, serverReadings: false, startedAt: new Date('2026-02-01T10:00:00Z'), histogramPool: 2 }).sessionId;
      ids.failed = seeder.session({ name: 'failed sweep', rps: 8_000, latencyUs: 1500, seconds: 3, sweep: [10, 50], stepLoad: [{}, { rpsFactor: 3 }], status: 'failed', startedAt: new Date('2026-03-04T10:00:00Z'), histogramPool: 4 }).sessionId;
    }),
  );

  test('list: newest first with each session’s peak figures; --tag and --limit filter; --json carries the headline', () => {
    const listed = cli(dataDir, 'sessions', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    const rows = listed.stdout.trim().split('\n').slice(1);
    assert.deepEqual(
      rows.map((row) => row.trim().split(/\s{2,}/)[1]),
      ['failed sweep', 'sweep', 'node sync', 'node async', 'no server sampled'],
    );
    assert.match(listed.stdout, /^ID +NAME +STATUS +TEMPLATES +REQ\/S +P99 MS +FAILED +STEP +TAGS +DATE$/m);
    assert.match(rows[3]!, /^\s*\d+ +node async +completed +node +\d{2},\d{3} +\d+\.\d{2} +0 +its only run +nightly +2026-03-01 10:00$/);
    assert.match(rows[1]!, / best of 2 steps: c=\d+, 3 s /, 'a sweep names the step its figures are of');
    assert.match(rows[0]!, /^\s*\d+ +failed sweep +failed +node +[\d,]+ +[\d.]+ +0 +best of 2 steps: c=10, 3 s +- +2026-03-04 10:00$/, 'not the failed step, though it served the most');
    const tagged = cli(dataDir, 'sessions', 'list', '--tag', 'nightly', '--limit', '1', '--json');
    const entries = JSON.parse(tagged.stdout) as Array<{ id: number; headline: { requestsPerSecond: number } }>;
    assert.deepEqual(entries.map((entry) => entry.id), [ids.slow]);
    assert.ok(entries[0]!.headline.requestsPerSecond > 9_000 && entries[0]!.headline.requestsPerSecond < 11_000);
    assert.equal(cli(dataDir, 'sessions', 'list', '--limit', 'many').code, 2);
  });

  test('show: a row per run (sweep step)', () => {
    const shown = cli(dataDir, 'sessions', 'show', String(ids.sweep));
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^status +completed$/m);
    assert.match(shown.stdout, /^hosts +seed-client → seed-server$/m);
    assert.match(shown.stdout, /^1 +node +c=10, 3 s +completed +[\d,]+ /m);
    assert.match(shown.stdout, /^2 +node +c=50, 3 s +completed +[\d,]+ /m);
    assert.match(shown.stdout, /IN FLIGHT +SERVER RSS MIN\/MAX\/END$/m);
    // Stored before the summary kept the memory: read from the stored seconds, as Compare and the export do.
    assert.match(shown.stdout, /^2 +node +c=50, 3 s +completed .* 0 +0 +0 +80 MB \/ 80 MB \/ 80 MB *$/m);
    const unsampled = cli(dataDir, 'sessions', 'show', String(ids.unsampled));
    assert.match(unsampled.stdout, /^1 +node .* no server readings *$/m, 'no "-": why there is no memory');
    const failed = cli(dataDir, 'sessions', 'show', String(ids.failed));
    assert.match(failed.stdout, /^2 +node +c=50, 3 s +failed +[\d,]+ /m);
    const missing = cli(dataDir, 'sessions', 'show', '999');
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'benchlab sessions: session 999 does not exist\n');
  });

  test('tag: +adds and -removes (a -TAG is not taken for an option); a bad tag changes nothing', () => {
    const tagged = cli(dataDir, 'sessions', 'tag', String(ids.fast), '+baseline', '-nightly', '--json');
    assert.equal(tagged.code, 0, tagged.stderr);
    assert.deepEqual(JSON.parse(tagged.stdout), { id: ids.fast, tags: ['baseline'] });
    const bad = cli(dataDir, 'sessions', 'tag', String(ids.fast), '+a,b');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /tags: must not contain commas/);
    const back = cli(dataDir, 'sessions', 'tag', String(ids.fast), '+nightly', '-baseline');
    assert.equal(back.stdout, `${ids.fast}  nightly\n`);
  });

  test('compare: the headline table per configuration, sessions by id or by tag', () => {
    const byIds = cli(dataDir, 'compare', String(ids.fast), String(ids.slow));
    assert.equal(byIds.code, 0, byIds.stderr);
    const lines = byIds.stdout.trim().split('\n');
    assert.equal(lines[0], 'Comparison: node async vs node sync');
    assert.deepEqual(lines[2]!.split(/\s{2,}/), ['SESSION', 'STATUS', 'REQ/S', 'P50 MS', 'P99 MS', 'MAX MS', 'FAILED', 'NOT SENT', 'SERVER RSS']);
    const figures = (line: string) => line.trim().split(/\s{2,}/);
    const [fast, slow] = [figures(lines[3]!), figures(lines[4]!)];
    assert.deepEqual(fast.slice(0, 2), [`${ids.fast} node async`, 'completed']);
    assert.deepEqual(slow.slice(0, 2), [`${ids.slow} node sync`, 'completed']);
    assert.ok(Number(fast[2]!.replace(/,/g, '')) > Number(slow[2]!.replace(/,/g, '')), 'the faster session has more requests/s');
    assert.ok(Number(fast[4]) < Number(slow[4]), 'and a lower p99');
    assert.deepEqual(fast.slice(6), ['0', '0', '80 MB']);
    const withFailed = cli(dataDir, 'compare', String(ids.sweep), String(ids.failed)).stdout;
    assert.match(withFailed, new RegExp(`^${ids.failed} failed sweep +failed +`, 'm'), 'a failed run says so');
    const byTag = cli(dataDir, 'compare', 'nightly', '--json');
    assert.deepEqual((JSON.parse(byTag.stdout) as { sessions: Array<{ id: number }> }).sessions.map((session) => session.id), [ids.fast, ids.slow]);
    const unknown = cli(dataDir, 'compare', String(ids.fast), 'no-such-tag');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /"no-such-tag" is neither a session id nor a tag of any session/);
  });

  test('export writes the chosen format to --out', () => {
    const out = join(dir, 'fast.csv');
    const exported = cli(dataDir, 'sessions', 'export', String(ids.fast), '--format', 'csv', '--out', out);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 1 + 4, 'a header and one row per stored second');
    assert.equal(cli(dataDir, 'sessions', 'export', String(ids.fast), '--format', 'xml').code, 2);
  });

  test('rm: refuses without --yes, then deletes', () => {
    const refused = cli(dataDir, 'sessions', 'rm', String(ids.sweep));
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /add --yes/);
    assert.equal(cli(dataDir, 'sessions', 'rm', String(ids.sweep), '--yes').code, 0);
    assert.equal(cli(dataDir, 'sessions', 'show', String(ids.sweep)).code, 2);
  });
});
