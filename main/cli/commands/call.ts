// `benchlab call <request> [json-args]`: one raw contract request through the same dispatcher as
// the app, its result as JSON on stdout. The escape hatch for anything without its own command.

import { REQUEST_NAMES } from '../../../app/contract.ts';
import { parseUntrustedJson } from '../../../app/common/safe-json.ts';
import { createDispatcher } from '../../api/dispatch.ts';
import { createHandlers } from '../../api/handlers.ts';
import { EXIT, UsageError, writeJson, type Command } from '../cli-kit.ts';
import { messageOf } from '../../../app/common/errors.ts';

export const callCommand: Command = {
  name: 'call',
  summary: 'send one raw contract request and print its result as JSON',
  usage: `usage: benchlab call <request> [json-args]

  <request>    a contract request name, e.g. hosts.list (see --list)
  [json-args]  the request's arguments as one JSON object (default {})
  --list       print the request names and exit`,
  example: `benchlab call hosts.list
benchlab call hosts.add '{"name":"srv","address":"10.0.0.2","port":22,"user":"root","auth":"agent"}'`,
  options: { list: { type: 'boolean' } },
  async run(ctx) {
    if (ctx.values.list) {
      ctx.stdout.write(`${REQUEST_NAMES.join('\n')}\n`);
      return EXIT.ok;
    }
    const [name, argsText, ...extra] = ctx.positionals;
    if (!name) throw new UsageError('missing the request name');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}": pass the arguments as one JSON object`);
    let args: unknown = {};
    try {
      if (argsText !== undefined) args = parseUntrustedJson(argsText);
    } catch (error) {
      throw new UsageError(messageOf(error));
    }
    const dispatch = createDispatcher(createHandlers(ctx.services()), (error) => ctx.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`));
    const outcome = await dispatch(name, args);
    if (!outcome.ok) {
      ctx.stderr.write(`benchlab call: ${outcome.error.code}: ${outcome.error.message}\n`);
      return outcome.error.code === 'internal' ? EXIT.failed : EXIT.badInput;
    }
    writeJson(ctx.stdout, outcome.result);
    return EXIT.ok;
  },
};
