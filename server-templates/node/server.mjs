// Benchlab's Node.js template: plain node:http with no framework, serving the endpoints of
// server-templates/CONTRACT.md (answers, database, cluster and stop from ../node-common). Variant
// "async" reads /file with fs.promises and sleeps on a timer; "sync" reads with readFileSync and
// blocks its thread during /sleep, like the Gatling seed's "Node.js sync". Bundled with pg by
// ../node-common/build.mjs into dist/server.mjs.

import { Buffer } from 'node:buffer';
import http from 'node:http';
import { URL } from 'node:url';
import { answerOf } from '../node-common/routes.mjs';
import { closeHandle, runServer } from '../node-common/serve.mjs';

function send(response, answer, extra = {}) {
  response.writeHead(answer.status, { 'Content-Type': answer.type, 'Content-Length': Buffer.byteLength(answer.body), ...extra });
  response.end(answer.body);
}

function listen(port, routes) {
  const byPath = new Map(routes.map((route) => [route.path, route]));
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url, 'http://localhost');
    const route = byPath.get(url.pathname);
    if (!route) return send(response, { status: 404, type: 'text/plain', body: 'not found\n' });
    if (!route.methods.includes(request.method)) {
      return send(response, { status: 405, type: 'text/plain', body: 'method not allowed\n' }, { Allow: route.methods.join(', ') });
    }
    const answer = await answerOf(route, (name) => url.searchParams.get(name) ?? undefined, request.url);
    if (!response.destroyed) send(response, answer);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve(closeHandle(server));
    });
  });
}

runServer(listen);
