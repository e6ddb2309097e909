// Benchlab's Node.js template: plain node:http serving the endpoints of server-templates/CONTRACT.md.
// Variant "async" reads /file with fs.promises and sleeps on a timer; variant "sync" reads with
// readFileSync and sleeps by blocking its thread (Atomics.wait), like the Gatling seed's
// "Node.js sync". Knobs: --workers N (node:cluster when N > 1) and --cache-file (read the payload
// once at start instead of per request). Runs on Node >= 18 with no dependencies.

import { Buffer } from 'node:buffer';
import cluster from 'node:cluster';
import console from 'node:console';
import { promises as fsp, readFileSync } from 'node:fs';
import http from 'node:http';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { URL } from 'node:url';

const LIMITS = { fib: 45, concat: 1_000_000, sleepMs: 60_000 };
const DEFAULTS = { fib: 30, concat: 10_000, sleepMs: 500 };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function parseOptions(argv) {
  const options = { port: 8080, variant: 'async', workers: 1, payload: null, cacheFile: false };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === '--port') options.port = Number(value);
    else if (name === '--variant') options.variant = value;
    else if (name === '--workers') options.workers = Number(value);
    else if (name === '--payload') options.payload = value;
    else if (name === '--cache-file') options.cacheFile = value === 'true';
    else throw new Error(`unknown option ${name}`);
  }
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) throw new Error(`--port must be 1-65535`);
  if (options.variant !== 'async' && options.variant !== 'sync') throw new Error(`--variant must be async or sync`);
  if (!Number.isInteger(options.workers) || options.workers < 1) throw new Error(`--workers must be a positive whole number`);
  if (!options.payload) throw new Error('--payload is required');
  return options;
}

const options = parseOptions(process.argv.slice(2));
// Read once at start: a missing payload fails the start, not the first request.
const cachedPayload = readFileSync(options.payload);
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function send(response, status, type, body, extra = {}) {
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra });
  response.end(body);
}

/** A whole-number query parameter within [0, max], its default when absent, or null when invalid. */
function intParam(url, name, fallback, max) {
  const text = url.searchParams.get(name);
  if (text === null) return fallback;
  if (!/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value <= max ? value : null;
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function concat(n) {
  let text = '';
  for (let i = 0; i < n; i++) text += LETTERS[Math.floor(Math.random() * LETTERS.length)];
  return text;
}

async function readPayload() {
  if (options.cacheFile) return cachedPayload;
  return options.variant === 'sync' ? readFileSync(options.payload) : fsp.readFile(options.payload);
}

async function handle(request, response) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return send(response, 405, 'text/plain', 'method not allowed\n', { Allow: 'GET, HEAD' });
  }
  const url = new URL(request.url, 'http://localhost');
  switch (url.pathname) {
    case '/hello':
      return send(response, 200, 'text/plain', 'hello world\n');
    case '/health':
      return send(response, 200, 'text/plain', 'ok\n');
    case '/json':
      return send(response, 200, 'application/json', JSON.stringify({ message: 'Hello, World!' }));
    case '/file':
      return send(response, 200, 'application/octet-stream', await readPayload());
    case '/fib': {
      const n = intParam(url, 'n', DEFAULTS.fib, LIMITS.fib);
      if (n === null) return send(response, 400, 'text/plain', `n must be a whole number from 0 to ${LIMITS.fib}\n`);
      return send(response, 200, 'text/plain', `${fib(n)}\n`);
    }
    case '/concat': {
      const n = intParam(url, 'n', DEFAULTS.concat, LIMITS.concat);
      if (n === null) return send(response, 400, 'text/plain', `n must be a whole number from 0 to ${LIMITS.concat}\n`);
      return send(response, 200, 'text/plain', concat(n));
    }
    case '/sleep': {
      const ms = intParam(url, 'ms', DEFAULTS.sleepMs, LIMITS.sleepMs);
      if (ms === null) return send(response, 400, 'text/plain', `ms must be a whole number from 0 to ${LIMITS.sleepMs}\n`);
      if (options.variant === 'sync') Atomics.wait(sleeper, 0, 0, ms);
      else await new Promise((resolve) => setTimeout(resolve, ms));
      return send(response, 200, 'text/plain', `slept ${ms} ms\n`);
    }
    default:
      return send(response, 404, 'text/plain', 'not found\n');
  }
}

function serve() {
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error) => {
      console.error(`request ${request.url} failed: ${error.stack ?? error}`);
      if (!response.headersSent) send(response, 500, 'text/plain', 'internal error\n');
      else response.destroy();
    });
  });
  server.on('error', (error) => {
    console.error(`cannot serve on port ${options.port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(options.port, () => {
    if (options.workers === 1 || cluster.isWorker) {
      const who = cluster.isWorker ? `worker ${cluster.worker.id} (pid ${process.pid})` : `pid ${process.pid}`;
      console.log(`node ${process.version} ${who}: listening on port ${options.port} (variant ${options.variant}, ${options.cacheFile ? 'payload cached in memory' : 'payload read per request'})`);
    }
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections?.();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function supervise() {
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

if (options.workers > 1 && cluster.isPrimary) supervise();
else serve();
