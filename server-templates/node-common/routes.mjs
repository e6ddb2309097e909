// Which request gets which answer, for every Node template: the contract's paths with the methods
// they take and the answer for the parsed query. A framework template registers each route with
// its own router and sends the answer its own way; the plain template looks them up by path.

import { Buffer } from 'node:buffer';
import console from 'node:console';
import { text } from './contract.mjs';

/** The routes of the contract; `query(name)` is the framework's parsed query value. */
export function contractRoutes(contract, database) {
  const readOnly = ['GET', 'HEAD'];
  return [
    { path: '/hello', methods: readOnly, answer: () => contract.hello() },
    { path: '/health', methods: readOnly, answer: () => contract.health() },
    { path: '/json', methods: readOnly, answer: () => contract.json() },
    { path: '/file', methods: readOnly, answer: () => contract.file() },
    { path: '/fib', methods: readOnly, answer: (query) => contract.fib(query('n')) },
    { path: '/concat', methods: readOnly, answer: (query) => contract.concat(query('n')) },
    { path: '/sleep', methods: readOnly, answer: (query) => contract.sleep(query('ms')) },
    { path: '/db', methods: readOnly, answer: () => database.db() },
    { path: '/queries', methods: readOnly, answer: (query) => database.queries(query('n')) },
    { path: '/updates', methods: readOnly, answer: (query) => database.updates(query('n')) },
    { path: '/fortunes', methods: readOnly, answer: () => database.fortunes() },
    // The siege seed posts a document; a GET does the same, so a plain load tool can drive it too.
    { path: '/docs', methods: [...readOnly, 'POST'], answer: () => database.docs() },
  ];
}

/** The route's answer; a failure (the database gone) is logged and answers 500. */
export async function answerOf(route, query, url) {
  try {
    return await route.answer(query);
  } catch (error) {
    console.error(`request ${url} failed: ${error.stack ?? error}`);
    return text(500, 'internal error\n');
  }
}

/** An answer's body as bytes: what frameworks send as is, where a string would get a charset the contract's Content-Type has not. */
export function bytesOf(body) {
  return typeof body === 'string' ? Buffer.from(body) : body;
}
