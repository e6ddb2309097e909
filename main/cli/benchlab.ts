// The CLI's entry: `benchlab [--data-dir DIR] <command> [args]` on the same services and store as
// the app. Global options may come before the command (or after it: each command accepts them);
// the command parses the rest strictly. `benchlab --help` lists the commands.

import { appVersion, defaultDataDir } from '../services/services.ts';
import { EXIT, invokeCommand, optionErrorMessage, type CliIo } from './cli-kit.ts';
import { COMMANDS } from './commands/index.ts';
import { messageOf } from '../../app/common/errors.ts';

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'usage: benchlab [--data-dir DIR] <command> [args]',
    '',
    'commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'global options:',
    '  --data-dir DIR   the data folder (default: BENCHLAB_DATA_DIR, else the app\'s user data folder)',
    '  -h, --help       this help; `benchlab <command> --help` for a command\'s options and an example',
    '  --version        print the version',
    '',
    'exit codes: 0 ok, 1 failed, 2 bad input, 130 interrupted',
    '',
  ].join('\n');
}

/** Reads the global options in front of the command name; everything from the name on belongs to the command. */
function splitGlobals(argv: string[]): { dataDir?: string; help: boolean; version: boolean; rest: string[]; error?: string } {
  let dataDir: string | undefined;
  let help = false;
  let version = false;
  let index = 0;
  for (; index < argv.length; index++) {
    const arg = argv[index]!;
    if (!arg.startsWith('-')) break;
    if (arg === '--data-dir') {
      dataDir = argv[++index];
      if (dataDir === undefined) return { help, version, rest: [], error: "option '--data-dir DIR' needs a value" };
    } else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--version') version = true;
    else return { help, version, rest: [], error: optionErrorMessage(new Error(`Unknown option '${arg}'`)) };
  }
  return { dataDir, help, version, rest: argv.slice(index) };
}

async function main(argv: string[], io: CliIo): Promise<number> {
  const globals = splitGlobals(argv);
  if (globals.error) {
    io.stderr.write(`benchlab: ${globals.error}\nsee: benchlab --help\n`);
    return EXIT.badInput;
  }
  const [name, ...args] = globals.rest;
  if (globals.version) {
    io.stdout.write(`${appVersion()}\n`);
    return EXIT.ok;
  }
  if (!name) {
    (globals.help ? io.stdout : io.stderr).write(overview());
    return globals.help ? EXIT.ok : EXIT.badInput;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(`benchlab: unknown command "${name}"\nsee: benchlab --help\n`);
    return EXIT.badInput;
  }
  return invokeCommand(command, globals.help ? ['--help', ...args] : args, { dataDir: globals.dataDir, defaultDataDir: () => defaultDataDir(), io });
}

try {
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
} catch (error) {
  process.stderr.write(`benchlab: ${messageOf(error)}\n`);
  process.exitCode = EXIT.failed;
}
