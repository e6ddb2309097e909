import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FORTUNES, missingPostgres, parseFoundPostgres, parseStartReport, pickPostgres, seedSql } from './template-database.ts';

describe('finding PostgreSQL on a host', () => {
  const lookup = [
    'postgres /usr/lib/postgresql/12/bin postgres (PostgreSQL) 12.22 (Ubuntu 12.22-0ubuntu0.20.04.1)',
    'postgres /usr/lib/postgresql/15/bin postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)',
    'postgres /usr/pgsql-16/bin postgres (PostgreSQL) 16.4',
    'postgres /usr/lib/postgresql/15/bin postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)',
    'end',
  ].join('\n');

  test('each installation once, with its version; the newest new enough is picked', () => {
    const found = parseFoundPostgres(lookup);
    assert.deepEqual(found, [
      { bin: '/usr/lib/postgresql/12/bin', version: '12.22' },
      { bin: '/usr/lib/postgresql/15/bin', version: '15.14' },
      { bin: '/usr/pgsql-16/bin', version: '16.4' },
    ]);
    assert.equal(pickPostgres(found, 13)?.bin, '/usr/pgsql-16/bin');
    assert.equal(pickPostgres(found.slice(0, 1), 13), null);
    assert.equal(pickPostgres([], 13), null);
  });

  test('none new enough: what was found and the install command of the host', () => {
    const old = parseFoundPostgres(lookup).slice(0, 1);
    assert.equal(
      missingPostgres('db-box', 13, old, 'apt-get'),
      'PostgreSQL 13+ is not installed on db-box (found 12.22 in /usr/lib/postgresql/12/bin): DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql',
    );
    assert.equal(missingPostgres('rh', 13, [], 'dnf'), 'PostgreSQL 13+ is not installed on rh: dnf install -y postgresql-server');
    assert.match(missingPostgres('odd', 13, [], null), /install it with the host's package manager$/);
  });
});

describe('the private instance', () => {
  test('the seed holds the three tables, the twelve fortunes quoted for SQL, in one transaction', () => {
    const sql = seedSql();
    assert.match(sql, /^BEGIN;\nCREATE TABLE world \(id integer PRIMARY KEY, randomnumber integer NOT NULL\);/);
    assert.match(sql, /generate_series\(1, 10000\)/);
    assert.match(sql, /CREATE TABLE docs \(id serial PRIMARY KEY, title text NOT NULL, body text NOT NULL, count integer NOT NULL\)/);
    assert.equal(FORTUNES.length, 12);
    assert.ok(sql.includes(`(2, 'A computer scientist is someone who fixes things that aren''t broken.')`));
    assert.ok(sql.includes(`(12, 'フレームワークのベンチマーク')`));
    // Its own tables only: the owner may not analyze the catalogs, and a whole-database ANALYZE filled
    // the database's log (the one a failure shows) with a warning for each of them.
    assert.match(sql, /COMMIT;\nANALYZE world, fortune, docs;\n$/);
  });

  test('the start report: facts when it started, the reason and log lines when not', () => {
    const started = parseStartReport(
      ['progress initdb', 'version 15.14 (Debian 15.14-0+deb12u1)', 'setting shared_buffers 128MB', 'setting fsync on', 'port 41234', 'started', ''].join('\n'),
    );
    assert.deepEqual(started, { ok: true, port: 41234, version: '15.14 (Debian 15.14-0+deb12u1)', settings: { shared_buffers: '128MB', fsync: 'on' } });
    assert.deepEqual(parseStartReport('progress initdb\nerror initdb failed\nlog initdb: could not create directory\n'), {
      ok: false,
      error: 'initdb failed',
      log: ['initdb: could not create directory'],
    });
    assert.deepEqual(parseStartReport('progress initdb\nport 5\n'), { ok: false, error: 'the database start script did not finish', log: [] });
  });
});
