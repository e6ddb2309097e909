// `npm run web`: hosts the back end in Node and serves the built renderer to a local browser, on
// the port it used last time on this data dir when that one is free (see web-mode-memory.ts).

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDispatcher } from '../api/dispatch.ts';
import { createHandlers } from '../api/handlers.ts';
import { DataDirError, defaultDataDir } from '../services/data-dir.ts';
import { createServices } from '../services/services.ts';
import { NewerSchemaError } from '../services/store/database.ts';
import { appVersion } from '../services/version.ts';
import { offerNewUrls } from './new-url-on-demand.ts';
import { startWebServer, type RunningWebServer } from './server.ts';
import { ENTER_FORWARDED_ENV, startedBy, wayBack } from './way-back.ts';
import { WebLogins } from './web-logins.ts';
import { loadWebModeMemory, saveWebModeMemory } from './web-mode-memory.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const WEB_BUILD_DIR = join(REPO_ROOT, 'out', 'web');

function fail(message: string): never {
  console.error(`benchlab: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'static-dir': { type: 'string' },
    },
  });
  const port = values.port === undefined ? null : Number(values.port);
  if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) fail(`--port must be a number from 0 to 65535, not "${values.port}"`);
  const staticDir = resolve(values['static-dir'] ?? WEB_BUILD_DIR);
  if (!existsSync(join(staticDir, 'index.html'))) fail(`the UI is not built in ${staticDir}: run "npm run build:web" first`);
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();

  let services;
  try {
    services = createServices({ dataDir, transport: 'web', version: appVersion() });
  } catch (error) {
    if (error instanceof NewerSchemaError || error instanceof DataDirError) fail(error.message);
    throw error;
  }
  for (const notice of services.info().notices) console.warn(`benchlab: ${notice}`);

  const dispatch = createDispatcher(createHandlers(services), (error, name) => {
    console.error(`benchlab: ${name} failed:`, error);
  }, services.requests);
  const warn = (line: string) => console.warn(`benchlab: ${line}`);
  const memory = loadWebModeMemory(dataDir);
  let server: RunningWebServer | undefined;
  const remember = (sessions = memory.sessions) => {
    memory.sessions = sessions;
    if (server) saveWebModeMemory(dataDir, { port: server.port, sessions });
  };
  const logins = new WebLogins({ remembered: memory.sessions, onSessions: remember });
  // Until the terminal is known to be read, the 401 pages offer the signal only.
  let way = wayBack({ startedBy: startedBy(), enterWorks: false, pid: process.pid });
  const start = (on: number) => startWebServer({ dispatch, bus: services.bus, staticDir, port: on, warn, logins, wayBack: () => way });
  const inUse = (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE';
  if (port !== null) {
    server = await start(port).catch((error: NodeJS.ErrnoException) => {
      if (inUse(error)) fail(`port ${port} is already in use: pick another with --port, or omit it for a free one`);
      throw error;
    });
  } else if (memory.port !== null) {
    // The last port keeps an open tab's address valid; taken meanwhile, any free one will do.
    const last = memory.port;
    server = await start(last).catch((error: NodeJS.ErrnoException) => {
      if (!inUse(error)) throw error;
      warn(`port ${last}, used last time, is taken now: serving on another one (an open tab needs the new link)`);
      return start(0);
    });
  } else server = await start(0);
  remember();
  console.log(`Benchlab web mode (data: ${dataDir}, pid ${process.pid}) — open ${server.url}`);
  const onDemand = offerNewUrls(server.newUrl, (url) => console.log(`New one-time link — open ${url}`));
  // Under `npm start`, Enter reaches this process as SIGUSR2 from npm start, which reads the terminal.
  const enterWorks = onDemand.readsTerminal || process.env[ENTER_FORWARDED_ENV] === '1';
  way = wayBack({ startedBy: startedBy(), enterWorks, pid: process.pid });
  console.log(`Each link opens Benchlab once. For a new one, ${enterWorks ? 'press Enter here or ' : ''}run: kill -USR2 ${process.pid}`);

  // The work in flight is ended or awaited before the store closes, and the page sees it end; a
  // second Ctrl-C (the handlers are gone by then) quits at once.
  const shutdown = () => {
    console.error('benchlab: shutting down: ending the work in flight (Ctrl-C again to quit at once)');
    services
      .close()
      .then(() => server.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('benchlab: shutting down failed:', error);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

await main();
