// The answers of server-templates/CONTRACT.md's plain endpoints, the same for every Node template:
// each returns { status, type, body } and the template's framework only routes and sends it.
// Variant "async" reads /file with fs.promises and sleeps on a timer; "sync" reads with
// readFileSync and sleeps by blocking its thread (Atomics.wait). Query values come as the
// framework parsed them: a string, undefined when absent, or an array when repeated (invalid).

import { promises as fsp, readFileSync } from 'node:fs';
import { setTimeout } from 'node:timers';

const LIMITS = { fib: 45, concat: 1_000_000, sleepMs: 60_000 };
const DEFAULTS = { fib: 30, concat: 10_000, sleepMs: 500 };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function text(status, body) {
  return { status, type: 'text/plain', body };
}

/** A whole-number query value within [0, max], `fallback` when absent, or null when invalid. */
function wholeNumber(value, fallback, max) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return null;
  const number = Number(value);
  return number <= max ? number : null;
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

export function randomLetters(n) {
  let letters = '';
  for (let i = 0; i < n; i++) letters += LETTERS[Math.floor(Math.random() * LETTERS.length)];
  return letters;
}

/** The contract's plain endpoints for the parsed command line (see options.mjs). */
export function createContract(options) {
  // Read once at start: a missing payload fails the start, not the first request.
  const cachedPayload = readFileSync(options.payload);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));

  async function readPayload() {
    if (options.cacheFile) return cachedPayload;
    return options.variant === 'sync' ? readFileSync(options.payload) : fsp.readFile(options.payload);
  }

  return {
    hello: () => text(200, 'hello world\n'),
    health: () => text(200, 'ok\n'),
    json: () => ({ status: 200, type: 'application/json', body: JSON.stringify({ message: 'Hello, World!' }) }),
    file: async () => ({ status: 200, type: 'application/octet-stream', body: await readPayload() }),
    fib: (n) => {
      const value = wholeNumber(n, DEFAULTS.fib, LIMITS.fib);
      return value === null ? text(400, `n must be a whole number from 0 to ${LIMITS.fib}\n`) : text(200, `${fib(value)}\n`);
    },
    concat: (n) => {
      const value = wholeNumber(n, DEFAULTS.concat, LIMITS.concat);
      return value === null ? text(400, `n must be a whole number from 0 to ${LIMITS.concat}\n`) : text(200, randomLetters(value));
    },
    sleep: async (ms) => {
      const value = wholeNumber(ms, DEFAULTS.sleepMs, LIMITS.sleepMs);
      if (value === null) return text(400, `ms must be a whole number from 0 to ${LIMITS.sleepMs}\n`);
      if (options.variant === 'sync') Atomics.wait(sleeper, 0, 0, value);
      else await new Promise((resolve) => setTimeout(resolve, value));
      return text(200, `slept ${value} ms\n`);
    },
  };
}
