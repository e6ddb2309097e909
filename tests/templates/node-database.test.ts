// The Node templates' database endpoints (server-templates/node-common/database.mjs) against a
// real PostgreSQL: each template is built the way a deploy builds it (npm ci and esbuild in a build
// workspace), its bundle started on this machine with BENCHLAB_DB_URL pointing at a private
// instance started here by hand (initdb in a temp dir, a random loopback port, run as user
// postgres, seeded with the schema every database template reads), and each answer is checked
// against what the database holds. The lab's conformance suite checks the same templates deployed,
// with the database knob off.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FORTUNES, seedSql } from '../../app/templates/template-database.ts';
import { parseManifest } from '../../app/templates/templates.ts';
import { buildInWorkspace } from '../../main/services/templates/build-workspace.ts';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { until } from '../support/until.ts';

const TEMPLATES = ['node', 'node-express', 'node-fastify', 'node-restify'];
/** Kept between runs: an unchanged template is not built again. */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-node-template-builds');
const NO_DATABASE = 'no database: deploy with the knob database on\n';

function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const newest = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : null;
}

const bin = postgresBin();
const skip = process.platform !== 'linux' || process.getuid?.() !== 0 ? 'needs Linux and root (PostgreSQL runs as user postgres)' : bin ? false : 'PostgreSQL is not installed here';

function freePort(): Promise<number> {
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

/** A private PostgreSQL in a temp dir on a random loopback port, seeded; the machine's own is never touched. */
class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'benchlab-node-db-'));
  readonly password = randomBytes(12).toString('hex');
  port = 0;

  get url(): string {
    return `postgresql://benchlab:${this.password}@127.0.0.1:${this.port}/benchlab`;
  }

  #asPostgres(command: string, args: string[]): ReturnType<typeof spawnSync> {
    return spawnSync('runuser', ['-u', 'postgres', '--', join(bin!, command), ...args], { encoding: 'utf8', cwd: this.dir });
  }

  async start(): Promise<void> {
    chownSync(this.dir, uidOf('postgres'), gidOf('postgres'));
    const passwordFile = join(this.dir, 'password');
    writeFileSync(passwordFile, this.password);
    chownSync(passwordFile, uidOf('postgres'), gidOf('postgres'));
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

function uidOf(user: string): number {
  return Number(check(spawnSync('id', ['-u', user], { encoding: 'utf8' }), `id -u ${user}`).trim());
}

function gidOf(user: string): number {
  return Number(check(spawnSync('id', ['-g', user], { encoding: 'utf8' }), `id -g ${user}`).trim());
}

/** A built template's bundle running on this machine, with what it has printed. */
class RunningServer {
  readonly output: string[] = [];
  readonly child: ChildProcess;
  exitCode: number | null = null;
  readonly port: number;

  constructor(bundle: string, port: number, databaseUrl: string, workers = 1) {
    this.port = port;
    const args = [bundle, '--port', String(port), '--variant', 'async', '--workers', String(workers), '--cache-file', 'false', '--payload', bundledPaths().payloadFile];
    this.child = spawn(process.execPath, args, { env: { ...process.env, BENCHLAB_DB_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => this.output.push(...chunk.toString().split('\n').filter((line) => line !== ''));
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
    this.child.on('exit', (code) => {
      this.exitCode = code ?? -1;
    });
  }

  said(pattern: RegExp): string | undefined {
    return this.output.find((line) => pattern.test(line));
  }

  async stop(): Promise<void> {
    if (this.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await until(() => this.exitCode !== null, 'the server exits', 10_000);
  }

  async get(path: string, method = 'GET'): Promise<{ status: number; type: string | null; length: string | null; text: string }> {
    const response = await fetch(`http://127.0.0.1:${this.port}${path}`, { method });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), length: response.headers.get('content-length'), text };
  }

  async json(path: string, method = 'GET'): Promise<unknown> {
    const answer = await this.get(path, method);
    assert.equal(answer.status, 200, `${path}: ${answer.text}`);
    assert.equal(answer.type, 'application/json', `${path}: content type`);
    assert.equal(answer.length, String(Buffer.byteLength(answer.text)), `${path}: Content-Length`);
    return JSON.parse(answer.text);
  }
}

/** The fortunes page as the contract spells it, made here independently of the templates' code. */
function expectedFortunes(): string {
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

function assertWorlds(value: unknown, count: number, what: string): World[] {
  assert.ok(Array.isArray(value), `${what}: an array`);
  assert.equal(value.length, count, `${what}: ${count} rows`);
  for (const world of value as World[]) {
    assert.deepEqual(Object.keys(world), ['id', 'randomNumber'], `${what}: fields`);
    assert.ok(Number.isInteger(world.id) && world.id >= 1 && world.id <= 10_000, `${what}: id ${world.id}`);
    assert.ok(Number.isInteger(world.randomNumber) && world.randomNumber >= 1 && world.randomNumber <= 10_000, `${what}: randomNumber ${world.randomNumber}`);
  }
  return value as World[];
}

describe('Node templates: the database endpoints against a private PostgreSQL', { skip }, () => {
  const postgres = new PrivatePostgres();
  const bundles = new Map<string, string>();
  const servers: RunningServer[] = [];

  before(async () => {
    await postgres.start();
    const templatesDir = bundledPaths().templatesDir;
    for (const id of TEMPLATES) {
      const parsed = parseManifest(readFileSync(join(templatesDir, id, 'template.json'), 'utf8'), id);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      const built = await buildInWorkspace(join(templatesDir, id), parsed.manifest, BUILD_DIR);
      assert.deepEqual(built.artifacts, ['dist/server.mjs', 'dist/components.json']);
      bundles.set(id, join(built.dir, 'dist', 'server.mjs'));
    }
  });
  after(async () => {
    for (const server of servers) await server.stop();
    postgres.stop();
  });

  async function serve(id: string, databaseUrl = postgres.url, workers = 1): Promise<RunningServer> {
    const server = new RunningServer(bundles.get(id)!, await freePort(), databaseUrl, workers);
    servers.push(server);
    await until(() => server.said(/listening on port|workers ready/) ?? server.exitCode !== null, `${id} listens`, 20_000);
    assert.equal(server.exitCode, null, `${id} is running: ${server.output.join('\n')}`);
    return server;
  }

  for (const id of TEMPLATES) {
    test(`${id}: /db, /queries, /updates, /fortunes and /docs answer from the database`, async () => {
      const server = await serve(id);
      const framework = id === 'node' ? '' : ` ${id.slice('node-'.length)} \\d+\\.\\d+\\.\\d+`;
      assert.ok(server.said(new RegExp(`^node v\\d+\\S*(?: \\S+ \\S+)* pg \\d+\\.\\d+\\.\\d+`)) && server.said(new RegExp(`${framework}.*: listening on port ${server.port} .*database pool ${Math.min(2 * availableParallelism(), 32)}\\)`)), server.output.join('\n'));

      const [world] = assertWorlds([await server.json('/db')], 1, '/db');
      assert.deepEqual(postgres.sql(`SELECT randomnumber FROM world WHERE id = ${world!.id}`), [String(world!.randomNumber)], '/db answers the stored row');

      assertWorlds(await server.json('/queries?n=20'), 20, '/queries?n=20');
      for (const [query, count] of [['', 1], ['?n=0', 1], ['?n=abc', 1], ['?n=-3', 1], ['?n=501', 500], ['?n=500', 500]] as const) {
        assertWorlds(await server.json(`/queries${query}`), count, `/queries${query}`);
      }

      const updated = assertWorlds(await server.json('/updates?n=15'), 15, '/updates?n=15');
      const answered = new Map(updated.map((row) => [row.id, row.randomNumber]));
      const stored = postgres.sql(`SELECT id, randomnumber FROM world WHERE id IN (${[...answered.keys()].join(',')})`).map((line) => line.split('|').map(Number));
      assert.deepEqual(new Map(stored.map(([rowId, value]) => [rowId!, value!])), answered, '/updates stored the numbers it answered');
      assertWorlds(await server.json('/updates?n=abc'), 1, '/updates?n=abc');

      const fortunes = await server.get('/fortunes');
      assert.equal(fortunes.status, 200);
      assert.equal(fortunes.type, 'text/html; charset=utf-8');
      assert.equal(fortunes.length, String(Buffer.byteLength(fortunes.text)), '/fortunes: Content-Length');
      assert.equal(fortunes.text, expectedFortunes());

      const before = Number(postgres.sql('SELECT count(*) FROM docs')[0]);
      for (const method of ['POST', 'GET']) {
        const docs = (await server.json('/docs', method)) as Array<{ id: number; title: string; body: string; count: number }>;
        assert.equal(docs.length, 100, `${method} /docs answers 100 documents`);
        assert.deepEqual(Object.keys(docs[0]!), ['id', 'title', 'body', 'count']);
        assert.deepEqual(
          docs.map((doc) => doc.id),
          postgres.sql('SELECT id FROM docs ORDER BY id DESC LIMIT 100').map(Number),
          `${method} /docs: the newest 100 by id`,
        );
        const [inserted] = docs;
        assert.match(inserted!.title, /^[a-z]{10}$/);
        assert.match(inserted!.body, /^[a-z]{100}$/);
        assert.ok(inserted!.count >= 1 && inserted!.count <= 10_000, `count ${inserted!.count}`);
        assert.deepEqual(postgres.sql(`SELECT title, body, count FROM docs WHERE id = ${inserted!.id}`), [`${inserted!.title}|${inserted!.body}|${inserted!.count}`], 'the inserted document is stored');
      }
      assert.equal(Number(postgres.sql('SELECT count(*) FROM docs')[0]), before + 2, 'one document per request');
      await server.stop();
      assert.equal(server.exitCode, 0, 'a graceful stop closes the pool and exits 0');
    });
  }

  test('node with 2 cluster workers: each worker takes half the pool', async () => {
    const server = await serve('node', postgres.url, 2);
    await until(() => server.output.filter((line) => /worker \d+ \(pid \d+\): listening/.test(line)).length === 2, 'both workers listen', 20_000);
    const share = Math.ceil(Math.min(2 * availableParallelism(), 32) / 2);
    assert.equal(server.output.filter((line) => line.includes(`database pool ${share})`)).length, 2, server.output.join('\n'));
    assertWorlds(await server.json('/queries?n=50'), 50, '/queries?n=50 on two workers');
    await server.stop();
  });

  test('none: the database endpoints answer 503 with what to do; the others serve', async () => {
    const server = await serve('node-restify', 'none');
    assert.ok(server.said(/no database\)$/), server.output.join('\n'));
    for (const path of ['/db', '/queries?n=2', '/updates', '/fortunes', '/docs']) {
      const answer = await server.get(path);
      assert.deepEqual([answer.status, answer.type, answer.text], [503, 'text/plain', NO_DATABASE], path);
    }
    assert.equal((await server.get('/hello')).text, 'hello world\n');
  });

  test('a database that does not answer fails the start with the URL (without its password) and why', async () => {
    const closed = `postgresql://benchlab:secret@127.0.0.1:${await freePort()}/benchlab`;
    const server = new RunningServer(bundles.get('node-fastify')!, await freePort(), closed);
    servers.push(server);
    await until(() => server.exitCode !== null, 'the server gives up', 20_000);
    assert.equal(server.exitCode, 1);
    const said = server.output.join('\n');
    assert.match(said, /cannot reach the database at postgresql:\/\/benchlab@127\.0\.0\.1:\d+\/benchlab: .*ECONNREFUSED/);
    assert.doesNotMatch(said, /secret/);
  });
});
