// The program behind `npm run lab`: up, down, status and register, with their options and exit codes.

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isLabInstance, LAB_HOME, LAB_INSTANCES, MAX_LAB_CLIENTS } from './layout.ts';
import { labDown, labUp, registerHosts } from './lab.ts';
import { labUnsupportedReason } from './lab-tools.ts';
import { currentLayout, formatStatus, labStatus } from './lab-status.ts';
import type { RegisterResult } from './register.ts';

const USAGE = `usage: npm run lab -- <command> [options]
  up [--clients N] [--register] [--data-dir DIR]
                                     bring the lab up with N client hosts (default 1; a running
                                     lab is left as it is, or rebuilt if it has another count)
  down [--purge]                     stop it and remove namespaces, links, mounts, processes
                                     of the server and every client
                                     (--purge also deletes its keys in ${LAB_HOME})
  status [--json]                    show its state (exit 0 up, 1 broken, 3 down)
  register [--data-dir DIR]          register lab-server and every client (lab-client,
                                     lab-client2, …) in Benchlab's store
common: --instance ${LAB_INSTANCES.join('|')} (default: default)`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      register: { type: 'boolean', default: false },
      clients: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      purge: { type: 'boolean', default: false },
      instance: { type: 'string', default: 'default' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !command || positionals.length > 1) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (!isLabInstance(values.instance)) {
    console.error(`unknown instance "${values.instance}" (known: ${LAB_INSTANCES.join(', ')})`);
    return 2;
  }
  const instance = values.instance;
  const clients = values.clients === undefined ? undefined : Number(values.clients);
  if (clients !== undefined && !(Number.isInteger(clients) && clients >= 1 && clients <= MAX_LAB_CLIENTS)) {
    console.error(`--clients takes a whole number from 1 to ${MAX_LAB_CLIENTS}, not "${values.clients}"`);
    return 2;
  }
  const log = (line: string) => console.log(`lab: ${line}`);
  const printRegistration = (registered: RegisterResult) => {
    console.log(`registered in ${registered.databaseFile}: ${registered.added.length > 0 ? registered.added.join(', ') : 'nothing new'}`);
    for (const skipped of registered.skipped) console.log(`  skipped ${skipped.name}: already registered (address ${skipped.address})`);
    for (const notice of registered.notices) console.log(`  notice: ${notice}`);
  };

  switch (command) {
    case 'up': {
      const result = await labUp({
        instance,
        log,
        ...(clients === undefined ? {} : { clients }),
        register: values.register,
        ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
      });
      console.log(result.alreadyUp ? `lab was already up (checked in ${result.seconds} s)` : `lab up in ${result.seconds} s`);
      console.log(formatStatus(result.status));
      if (result.registered) printRegistration(result.registered);
      return 0;
    }
    case 'down': {
      const result = await labDown({ instance, log, purge: values.purge });
      if (result.leftovers.length === 0) {
        console.log(`lab down in ${result.seconds} s: no namespace, link, mount or process left`);
        return 0;
      }
      console.error(`lab down left behind:\n  ${result.leftovers.join('\n  ')}`);
      return 1;
    }
    case 'status': {
      const reason = labUnsupportedReason();
      if (reason) throw new Error(reason);
      const status = await labStatus({ instance });
      console.log(values.json ? JSON.stringify(status, null, 2) : formatStatus(status));
      return status.state === 'up' ? 0 : status.state === 'down' ? 3 : 1;
    }
    case 'register': {
      printRegistration(await registerHosts(currentLayout(instance), values['data-dir']));
      return 0;
    }
    default:
      console.error(`unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

/** True when this file is the program (`node tests/lab/lab-cli.ts …`), not an import. */
function invokedAsProgram(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedAsProgram()) {
  // A closed pipe (`npm run lab -- up | head`) must not abort an up or down half-way.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`lab: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
