// The life of every Node template's server: the command line, node:cluster when --workers > 1 (the
// primary forks and supervises, each worker serves), the database pool and its check at start, the
// line that says what listens (with the framework's and pg's versions the bundle was built with)
// and a graceful stop on TERM or INT. A template gives only `listen(port, routes)`, which starts its
// framework and returns `{ close() }` (closeHandle makes it for a node:http server).

import cluster from 'node:cluster';
import console from 'node:console';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { createContract } from './contract.mjs';
import { createDatabase, poolSizePerProcess } from './database.mjs';
import { optionsFromCommandLine } from './options.mjs';
import { contractRoutes } from './routes.mjs';

/** The libraries the bundle holds and their versions, written beside it by build.mjs: "express 5.3.0 pg 8.23.1". */
function componentsText() {
  try {
    const components = JSON.parse(readFileSync(new URL('./components.json', import.meta.url), 'utf8'));
    return Object.entries(components).map(([name, version]) => ` ${name} ${version}`).join('');
  } catch {
    return ' (unbundled)';
  }
}

/** PostgreSQL's pool, or for a mongodb:// URL the template's MongoDB client (`mongo`, when it has one). */
function databaseFor(url, options, mongo) {
  const pool = poolSizePerProcess(options.workers);
  const onError = (message) => console.error(message);
  if (!url?.startsWith('mongodb://')) return createDatabase(url, pool, onError);
  if (!mongo) throw new Error('this template has no MongoDB client: deploy it with the database postgres');
  return mongo(url, pool, onError);
}

async function serve(options, listen, mongo) {
  const database = databaseFor(process.env.BENCHLAB_DB_URL, options, mongo);
  await database.check();
  const routes = contractRoutes(createContract(options), database);
  const server = await listen(options.port, routes);
  const who = cluster.isWorker ? `worker ${cluster.worker.id} (pid ${process.pid})` : `pid ${process.pid}`;
  const payload = options.cacheFile ? 'payload cached in memory' : 'payload read per request';
  const pool = database.enabled ? `database pool ${database.poolSize}` : 'no database';
  console.log(`node ${process.version}${componentsText()} ${who}: listening on port ${options.port} (variant ${options.variant}, ${payload}, ${pool})`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    Promise.all([server.close(), database.close()]).then(
      () => process.exit(0),
      (error) => {
        console.error(`stopping failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function supervise(options) {
  let stopping = false;
  let ready = 0;
  for (let i = 0; i < options.workers; i++) cluster.fork();
  cluster.on('listening', () => {
    ready += 1;
    if (ready === options.workers) console.log(`node ${process.version} primary (pid ${process.pid}): ${options.workers} workers ready`);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    // A worker that dies mid-benchmark would change the results silently: stop everything instead.
    console.error(`worker ${worker.id} exited (${signal ?? `code ${code}`}); stopping`);
    stopping = true;
    for (const other of Object.values(cluster.workers ?? {})) other?.kill('SIGTERM');
    process.exitCode = 1;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * The `{ close() }` a template's `listen` returns for a node:http server (its own, or the one its
 * framework runs on): stops accepting, ends every open connection at once (a keep-alive one would
 * hold the stop until the client leaves) and resolves when the server has closed.
 */
export function closeHandle(httpServer) {
  return {
    close: () => {
      const closed = new Promise((done) => httpServer.close(done));
      httpServer.closeAllConnections();
      return closed;
    },
  };
}

/**
 * Runs the server this process is: the cluster's primary, or one that serves with `listen`.
 * `mongo` (createMongoDatabase of ./mongo.mjs) serves a mongodb:// database; only the templates
 * that pass it bundle Mongoose.
 */
export function runServer(listen, { mongo } = {}) {
  const options = optionsFromCommandLine();
  if (options.workers > 1 && cluster.isPrimary) return supervise(options);
  serve(options, listen, mongo).catch((error) => {
    console.error(`cannot serve on port ${options.port}: ${error.message}`);
    process.exit(1);
  });
}
