// Benchlab's restify template (the siege seed's framework): the contract's routes
// (../node-common/routes.mjs) on restify's router with its query parser, each answer sent with
// res.sendRaw(), which writes the bytes and headers as given (restify's formatters would add a
// charset the contract's Content-Type does not have). Everything else — the answers, the
// database (PostgreSQL with pg, or MongoDB's protocol with Mongoose), cluster workers, stop — is
// ../node-common's, the same as the plain node template's.
// Bundled by ../node-common/build.mjs into dist/server.mjs.

import restify from 'restify';
import { answerOf, bytesOf } from '../node-common/routes.mjs';
import { createMongoDatabase } from '../node-common/mongo.mjs';
import { closeHandle, runServer } from '../node-common/serve.mjs';

function listen(port, routes) {
  // handleUncaughtExceptions stays off: a failing answer is already a logged 500 (answerOf).
  const server = restify.createServer();
  server.use(restify.plugins.queryParser({ mapParams: false }));
  for (const route of routes) {
    for (const method of route.methods) {
      // restify names its DELETE del(), the others by their lower-case name; HEAD needs its own route.
      server[method.toLowerCase()](route.path, async (request, response) => {
        const answer = await answerOf(route, (name) => request.query[name], request.url);
        const body = bytesOf(answer.body);
        response.sendRaw(answer.status, body, { 'Content-Type': answer.type, 'Content-Length': body.length });
      });
    }
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.removeListener('error', reject);
      resolve(closeHandle(server.server));
    });
  });
}

// The siege seed's restify talked to MongoDB through Mongoose: with the database mongo, so does this one.
runServer(listen, { mongo: createMongoDatabase });
