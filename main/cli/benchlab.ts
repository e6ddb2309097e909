// Headless front door: `npm run cli -- <request> [json-args]` calls the same services and
// dispatcher as the app, e.g. `npm run cli -- hosts.add '{"name":"a","address":"10.0.0.2","port":22,"user":"root","auth":"agent"}'`.

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REQUEST_NAMES } from '../../app/contract.ts';
import { ApiError } from '../../app/common/errors.ts';
import { parseUntrustedJson } from '../../app/common/safe-json.ts';
import { createDispatcher } from '../api/dispatch.ts';
import { createHandlers } from '../api/handlers.ts';
import { defaultDataDir } from '../services/data-dir.ts';
import { createServices } from '../services/services.ts';
import { appVersion } from '../services/version.ts';

const USAGE = `usage: benchlab [--data-dir DIR] <request> [json-args]
requests: ${REQUEST_NAMES.join(', ')}`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [name, argsText] = positionals;
  if (values.help || !name) {
    console.log(USAGE);
    return name || values.help ? 0 : 2;
  }
  let args: unknown = {};
  try {
    if (argsText !== undefined) args = parseUntrustedJson(argsText);
  } catch (error) {
    console.error(`benchlab: ${(error as ApiError).message}`);
    return 2;
  }

  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();
  const services = createServices({ dataDir, transport: 'cli', version: appVersion() });
  try {
    for (const notice of services.info().notices) console.error(`benchlab: ${notice}`);
    const dispatch = createDispatcher(createHandlers(services), (error) => console.error(error));
    const outcome = await dispatch(name, args);
    if (!outcome.ok) {
      console.error(`benchlab: ${outcome.error.code}: ${outcome.error.message}`);
      return outcome.error.code === 'internal' ? 1 : 2;
    }
    console.log(JSON.stringify(outcome.result, null, 2));
    return 0;
  } finally {
    services.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`benchlab: ${(error as Error).message}`);
  process.exitCode = 1;
}
