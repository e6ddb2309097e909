// Benchlab's Fastify template: the contract's routes (../node-common/routes.mjs) on Fastify's
// router, each answer sent as bytes with reply.code().header().send() (a string or type() would
// get a charset on JSON that the contract's Content-Type does not have). Everything else — the answers, the
// database, cluster workers, stop — is ../node-common's, the same as the plain node template's, so
// the two differ only by the framework. Bundled by ../node-common/build.mjs into dist/server.mjs.

import Fastify from 'fastify';
import { answerOf, bytesOf } from '../node-common/routes.mjs';
import { runServer } from '../node-common/serve.mjs';

/** Where to listen: every interface, IPv6 and IPv4, or IPv4 alone on a host without IPv6 (as node:http does by default). */
async function listenEverywhere(app, port) {
  try {
    await app.listen({ port, host: '::' });
  } catch (error) {
    if (error.code !== 'EAFNOSUPPORT' && error.code !== 'EADDRNOTAVAIL') throw error;
    await app.listen({ port, host: '0.0.0.0' });
  }
}

async function listen(port, routes) {
  // Close keep-alive connections at stop, as the other templates do; no request log (its cost is not the framework's).
  const app = Fastify({ logger: false, forceCloseConnections: true });
  // /docs takes a POST whatever its body: read and drop any body instead of refusing unknown types with 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    payload.resume();
    payload.once('end', () => done(null, undefined));
    payload.once('error', done);
  });
  for (const route of routes) {
    // Fastify answers HEAD with its GET route (exposeHeadRoutes).
    const method = route.methods.filter((name) => name !== 'HEAD');
    app.route({
      method,
      url: route.path,
      handler: async (request, reply) => {
        const answer = await answerOf(route, (name) => request.query[name], request.url);
        return reply.code(answer.status).header('content-type', answer.type).send(bytesOf(answer.body));
      },
    });
  }
  await listenEverywhere(app, port);
  return { close: () => app.close() };
}

runServer(listen);
