// The contract's database endpoints (/db, /queries, /updates, /fortunes, /docs; TechEmpower's
// definitions, see ../CONTRACT.md) over PostgreSQL with pg's connection pool, as answers
// { status, type, body } that a template's framework only routes and sends. The database is the
// URL in BENCHLAB_DB_URL; `none` (the template's knob `database` off) answers 503 on every one.
// Pool: min(2 × cores, 32) connections per server, split between cluster workers.

import os from 'node:os';
import { URL } from 'node:url';
import pg from 'pg';
import { randomLetters, text } from './contract.mjs';

const WORLD_ROWS = 10_000;
const MAX_QUERIES = 500;
const STORED_DOCS = 100;
export const NO_DATABASE = text(503, 'no database: deploy with the knob database on\n');

const SELECT_WORLD = { name: 'select-world', text: 'SELECT id, randomnumber FROM world WHERE id = $1' };
const UPDATE_WORLDS = {
  name: 'update-worlds',
  text: 'UPDATE world SET randomnumber = changed.value FROM (SELECT unnest($1::int[]) AS id, unnest($2::int[]) AS value) AS changed WHERE world.id = changed.id',
};
const SELECT_FORTUNES = { name: 'select-fortunes', text: 'SELECT id, message FROM fortune' };
const INSERT_DOC = { name: 'insert-doc', text: 'INSERT INTO docs (title, body, count) VALUES ($1, $2, $3)' };
// 100 stored documents as the database gives them, unsorted: the siege seed's select.
const SELECT_STORED_DOCS = { name: 'select-stored-docs', text: `SELECT id, title, body, count FROM docs LIMIT ${STORED_DOCS}` };

/** Connections of one server process: the server's min(2 × cores, 32), shared out between its workers (cores: availableParallelism from Node 18.14, cpus() before). */
export function poolSizePerProcess(workers, cores = os.availableParallelism?.() ?? os.cpus().length) {
  return Math.max(1, Math.ceil(Math.min(2 * cores, 32) / workers));
}

/** n of /queries and /updates: a whole number clamped to 1..500; missing or not a number is 1. */
export function queryCount(value) {
  if (typeof value !== 'string' || !/^[+-]?\d+$/.test(value)) return 1;
  return Math.min(MAX_QUERIES, Math.max(1, Number(value)));
}

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value) {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/** The fortunes page: the rows plus the one added at request time, sorted by message (UTF-16 order, as Java's compareTo). */
export function fortunesHtml(rows) {
  const fortunes = [...rows, { id: 0, message: 'Additional fortune added at request time.' }];
  fortunes.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const cells = fortunes.map((fortune) => `<tr><td>${fortune.id}</td><td>${escapeHtml(fortune.message)}</td></tr>`).join('');
  return `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${cells}</table></body></html>`;
}

const randomWorldId = () => 1 + Math.floor(Math.random() * WORLD_ROWS);
const json = (value) => ({ status: 200, type: 'application/json', body: JSON.stringify(value) });

/** The URL without its password, for messages. */
export function describeUrl(url) {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'an unreadable database URL';
  }
}

/**
 * The database endpoints for `url` with a pool of `poolSize`, or answers of 503 for `none`.
 * `check()` connects once, so a server whose database is unreachable fails at start, not per request.
 */
export function createDatabase(url, poolSize, onError) {
  if (!url || url === 'none') {
    const unavailable = () => NO_DATABASE;
    return { enabled: false, poolSize: 0, check: async () => undefined, close: async () => undefined, db: unavailable, queries: unavailable, updates: unavailable, fortunes: unavailable, docs: unavailable };
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server drops (a restart) is replaced on the next query: report, do not crash.
  pool.on('error', (error) => onError(`database connection lost: ${error.message}`));

  const selectWorld = async (id = randomWorldId()) => {
    const { rows } = await pool.query({ ...SELECT_WORLD, values: [id] });
    return { id: rows[0].id, randomNumber: rows[0].randomnumber };
  };
  const selectWorlds = (count) => Promise.all(Array.from({ length: count }, () => selectWorld()));

  return {
    enabled: true,
    poolSize,
    check: async () => {
      try {
        await pool.query('SELECT 1');
      } catch (error) {
        throw new Error(`cannot reach the database at ${describeUrl(url)}: ${error.message}`, { cause: error });
      }
    },
    close: () => pool.end(),
    db: async () => json(await selectWorld()),
    queries: async (n) => json(await selectWorlds(queryCount(n))),
    updates: async (n) => {
      const worlds = await selectWorlds(queryCount(n));
      // One new number per id, so a row drawn twice is written once and answers the same value.
      const changed = new Map(worlds.map((world) => [world.id, randomWorldId()]));
      // In id order, so two requests updating the same rows lock them in the same order (no deadlock).
      const ids = [...changed.keys()].sort((a, b) => a - b);
      await pool.query({ ...UPDATE_WORLDS, values: [ids, ids.map((id) => changed.get(id))] });
      return json(worlds.map((world) => ({ id: world.id, randomNumber: changed.get(world.id) })));
    },
    fortunes: async () => {
      const { rows } = await pool.query(SELECT_FORTUNES);
      return { status: 200, type: 'text/html; charset=utf-8', body: fortunesHtml(rows) };
    },
    docs: async () => {
      await pool.query({ ...INSERT_DOC, values: [randomLetters(10), randomLetters(100), randomWorldId()] });
      const { rows } = await pool.query(SELECT_STORED_DOCS);
      return json(rows.map((row) => ({ id: row.id, title: row.title, body: row.body, count: row.count })));
    },
  };
}
