// What the templates' database endpoints are checked against on this machine: a private PostgreSQL
// started by hand (initdb in a temp dir, a random loopback port, run as user postgres, seeded with
// the schema every database template reads; the machine's own PostgreSQL is never touched), and the
// checks of /db, /queries, /updates, /fortunes and /docs against what that database holds, the
// fortunes page spelled out here independently of any template's code.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORTUNES, seedSql } from '../../app/templates/template-database.ts';

export const NO_DATABASE = 'no database: deploy with the knob database on\n';

/** The newest PostgreSQL's bin folder of this machine's packages, or null. */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const newest = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : null;
}

const bin = postgresBin();

/** Why a test of the database endpoints cannot run here, or false. */
export const postgresSkipReason: string | false =
  process.platform !== 'linux' || process.getuid?.() !== 0 ? 'needs Linux and root (PostgreSQL runs as user postgres)' : bin ? false : 'PostgreSQL is not installed here';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function check(result: ReturnType<typeof spawnSync>, what: string): string {
  assert.equal(result.status, 0, `${what} failed: ${String(result.stderr)}${String(result.stdout)}`);
  return String(result.stdout);
}

function idOf(flag: '-u' | '-g', user: string): number {
  return Number(check(spawnSync('id', [flag, user], { encoding: 'utf8' }), `id ${flag} ${user}`).trim());
}

/** A private PostgreSQL in a temp dir on a random loopback port, seeded; the machine's own is never touched. */
export class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'benchlab-test-db-'));
  readonly password = randomBytes(12).toString('hex');
  port = 0;

  get url(): string {
    return `postgresql://benchlab:${this.password}@127.0.0.1:${this.port}/benchlab`;
  }

  #asPostgres(command: string, args: string[]): ReturnType<typeof spawnSync> {
    return spawnSync('runuser', ['-u', 'postgres', '--', join(bin!, command), ...args], { encoding: 'utf8', cwd: this.dir });
  }

  async start(): Promise<void> {
    chownSync(this.dir, idOf('-u', 'postgres'), idOf('-g', 'postgres'));
    const passwordFile = join(this.dir, 'password');
    writeFileSync(passwordFile, this.password);
    chownSync(passwordFile, idOf('-u', 'postgres'), idOf('-g', 'postgres'));
    check(this.#asPostgres('initdb', ['-D', join(this.dir, 'data'), '-U', 'benchlab', '--auth=scram-sha-256', `--pwfile=${passwordFile}`, '-E', 'UTF8', '--no-locale']), 'initdb');
    this.port = await freePort();
    const options = `-c listen_addresses=127.0.0.1 -c port=${this.port} -c unix_socket_directories=''`;
    check(this.#asPostgres('pg_ctl', ['-D', join(this.dir, 'data'), '-o', options, '-l', join(this.dir, 'log'), '-w', 'start']), 'pg_ctl start');
    this.sql('CREATE DATABASE benchlab', 'postgres');
    this.sql(seedSql());
  }

  /** psql as the owner over TCP; rows as lines of `|`-separated fields. */
  sql(text: string, database = 'benchlab'): string[] {
    const result = spawnSync(join(bin!, 'psql'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'benchlab', '-d', database, '-v', 'ON_ERROR_STOP=1', '-qAtX', '-c', text], {
      encoding: 'utf8',
      env: { ...process.env, PGPASSWORD: this.password },
    });
    return check(result, `psql ${text.slice(0, 40)}`).split('\n').filter((line) => line !== '');
  }

  stop(): void {
    if (this.port) this.#asPostgres('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface HttpAnswer {
  status: number;
  type: string | null;
  length: string | null;
  text: string;
}

/** One request to a server on this machine. */
export async function fetchAnswer(port: number, path: string, method = 'GET'): Promise<HttpAnswer> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), length: response.headers.get('content-length'), text };
}

/** A JSON answer's body, once its status, type and Content-Length are as the contract says. */
export async function fetchJson(port: number, path: string, method = 'GET'): Promise<unknown> {
  const answer = await fetchAnswer(port, path, method);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  assert.equal(answer.type, 'application/json', `${path}: content type`);
  assert.equal(answer.length, String(Buffer.byteLength(answer.text)), `${path}: Content-Length`);
  return JSON.parse(answer.text);
}

/** The fortunes page as the contract spells it, made here independently of the templates' code. */
export function expectedFortunes(): string {
  const rows = [...FORTUNES.map((message, index) => ({ id: index + 1, message })), { id: 0, message: 'Additional fortune added at request time.' }];
  rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
  const cells = rows.map((row) => `<tr><td>${row.id}</td><td>${escape(row.message)}</td></tr>`).join('');
  return `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${cells}</table></body></html>`;
}

interface World {
  id: number;
  randomNumber: number;
}

export function assertWorlds(value: unknown, count: number, what: string): World[] {
  assert.ok(Array.isArray(value), `${what}: an array`);
  assert.equal(value.length, count, `${what}: ${count} rows`);
  for (const world of value as World[]) {
    assert.deepEqual(Object.keys(world), ['id', 'randomNumber'], `${what}: fields`);
    assert.ok(Number.isInteger(world.id) && world.id >= 1 && world.id <= 10_000, `${what}: id ${world.id}`);
    assert.ok(Number.isInteger(world.randomNumber) && world.randomNumber >= 1 && world.randomNumber <= 10_000, `${what}: randomNumber ${world.randomNumber}`);
  }
  return value as World[];
}

/** Every database endpoint of the server on `port`, checked against what `postgres` holds. */
export async function checkDatabaseEndpoints(port: number, postgres: PrivatePostgres): Promise<void> {
  const [world] = assertWorlds([await fetchJson(port, '/db')], 1, '/db');
  assert.deepEqual(postgres.sql(`SELECT randomnumber FROM world WHERE id = ${world!.id}`), [String(world!.randomNumber)], '/db answers the stored row');

  assertWorlds(await fetchJson(port, '/queries?n=20'), 20, '/queries?n=20');
  for (const [query, count] of [['', 1], ['?n=0', 1], ['?n=abc', 1], ['?n=-3', 1], ['?n=501', 500], ['?n=500', 500]] as const) {
    assertWorlds(await fetchJson(port, `/queries${query}`), count, `/queries${query}`);
  }

  const updated = assertWorlds(await fetchJson(port, '/updates?n=15'), 15, '/updates?n=15');
  const answered = new Map(updated.map((row) => [row.id, row.randomNumber]));
  const stored = postgres.sql(`SELECT id, randomnumber FROM world WHERE id IN (${[...answered.keys()].join(',')})`).map((line) => line.split('|').map(Number));
  assert.deepEqual(new Map(stored.map(([rowId, value]) => [rowId!, value!])), answered, '/updates stored the numbers it answered');
  assertWorlds(await fetchJson(port, '/updates?n=abc'), 1, '/updates?n=abc');

  const fortunes = await fetchAnswer(port, '/fortunes');
  assert.equal(fortunes.status, 200);
  // The contract's type; a servlet container composes the header itself from type and charset and
  // leaves out the optional space (Tomcat, Jetty's servlet layer): the same media type.
  assert.match(fortunes.type ?? '', /^text\/html; ?charset=utf-8$/, '/fortunes: content type');
  assert.equal(fortunes.length, String(Buffer.byteLength(fortunes.text)), '/fortunes: Content-Length');
  assert.equal(fortunes.text, expectedFortunes());

  const count = () => Number(postgres.sql('SELECT count(*) FROM docs')[0]);
  const before = count();
  for (const [index, method] of ['POST', 'GET'].entries()) {
    const docs = (await fetchJson(port, '/docs', method)) as Array<{ id: number; title: string; body: string; count: number }>;
    assert.equal(docs.length, 100, `${method} /docs answers 100 documents`);
    assert.deepEqual(Object.keys(docs[0]!), ['id', 'title', 'body', 'count']);
    // Unsorted, as the siege seed's select: the first 100 the database gives, stored as answered.
    assert.deepEqual(
      docs.map((doc) => `${doc.id}|${doc.title}|${doc.body}|${doc.count}`),
      postgres.sql('SELECT id, title, body, count FROM docs LIMIT 100'),
      `${method} /docs: 100 stored documents, unsorted`,
    );
    assert.equal(count(), before + index + 1, `${method} /docs stores one document`);
    const [inserted] = postgres.sql('SELECT title, body, count FROM docs ORDER BY id DESC LIMIT 1');
    assert.match(inserted!, /^[a-z]{10}\|[a-z]{100}\|\d+$/, 'the document stored has the contract\'s random fields');
    const stored = Number(inserted!.split('|')[2]);
    assert.ok(stored >= 1 && stored <= 10_000, `count ${stored}`);
  }
}

/** Every database endpoint of a server without a database: 503 and what to do. */
export async function checkNoDatabase(port: number): Promise<void> {
  for (const path of ['/db', '/queries?n=2', '/updates', '/fortunes', '/docs']) {
    const answer = await fetchAnswer(port, path);
    assert.deepEqual([answer.status, answer.type, answer.text], [503, 'text/plain', NO_DATABASE], path);
  }
}
