// Benchlab's Express template: the contract's routes (../node-common/routes.mjs) on Express's
// router, each answer sent with res.status().set().send() as bytes (a string would get a charset
// the contract's Content-Type does not have). Everything else — the answers, the
// database, cluster workers, stop — is ../node-common's, the same as the plain node template's, so
// the two differ only by the framework. Bundled by ../node-common/build.mjs into dist/server.mjs.

import express from 'express';
import { answerOf, bytesOf } from '../node-common/routes.mjs';
import { closeHandle, runServer } from '../node-common/serve.mjs';

function listen(port, routes) {
  const app = express();
  // Express's defaults add headers the other templates do not send; the contract's bytes compare across servers.
  app.disable('x-powered-by');
  app.disable('etag');
  for (const route of routes) {
    // Express answers HEAD with its GET route.
    const methods = route.methods.filter((method) => method !== 'HEAD').map((method) => method.toLowerCase());
    for (const method of methods) {
      app[method](route.path, async (request, response) => {
        const answer = await answerOf(route, (name) => request.query[name], request.originalUrl);
        // Node's setHeader, not Express's set(), which would add the charset too.
        response.status(answer.status).setHeader('Content-Type', answer.type);
        response.send(bytesOf(answer.body));
      });
    }
  }
  return new Promise((resolve, reject) => {
    const server = app.listen(port, (error) => {
      if (error) return reject(error);
      resolve(closeHandle(server));
    });
  });
}

runServer(listen);
