// The CLI's framework: the command shape every `benchlab <command>` implements, exit codes, usage
// errors, help text, strict option parsing, lazily opened services, and plain output (aligned
// tables, JSON). Commands only parse, call the services and print; the services own every rule.

import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiError, type ApiErrorCode, messageOf } from '../../app/common/errors.ts';
import { appVersion, createServices, type Services } from '../services/services.ts';

/** Process exit codes, as CI scripts read them: 0 all good, 1 something failed, 2 bad input, 130 Ctrl-C. */
export const EXIT = { ok: 0, failed: 1, badInput: 2, interrupted: 130 } as const;

/** Bad input on the command line: printed as one line plus a pointer to the command's --help, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;
export type CommandOptions = ParseArgsConfig['options'];

export interface CommandContext {
  positionals: string[];
  values: OptionValues;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether stdout is a terminal (live progress, prompts) rather than a pipe or file. */
  isTTY: boolean;
  dataDir: string;
  /** The back end's services, opened on first call and closed by the kit once run() settles. */
  services(): Services;
}

export interface Command {
  name: string;
  /** One line for `benchlab --help`. */
  summary: string;
  /** The synopsis and a line per option; `benchlab <name> --help` prints it as written. */
  usage: string;
  /** A command line (or a few) that works as shown. */
  example: string;
  options: CommandOptions;
  /** Arguments like `-slow` that are not one of its short options are positionals (`sessions tag 3 +fast -slow`). */
  dashedPositionals?: boolean;
  run(ctx: CommandContext): Promise<number>;
}

/** Options every command accepts, before or after its name. */
export const GLOBAL_OPTIONS = {
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<CommandOptions>;

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
}

export interface InvokeOptions {
  /** The data dir from the global options in front of the command, if any. */
  dataDir: string | undefined;
  defaultDataDir: () => string;
  io: CliIo;
  /** Services factory; tests may pass their own. */
  openServices?: (dataDir: string) => Services;
}

/** Error codes that mean the user asked for something wrong (exit 2), rather than that it failed (exit 1). */
const BAD_INPUT_CODES: ReadonlySet<ApiErrorCode> = new Set(['invalid_args', 'unknown_request', 'too_large', 'not_found', 'conflict']);

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.badInput;
  if (error instanceof ApiError) {
    if (error.code === 'cancelled') return EXIT.interrupted;
    return BAD_INPUT_CODES.has(error.code) ? EXIT.badInput : EXIT.failed;
  }
  return EXIT.failed;
}

/** Parses a command's arguments strictly, runs it, closes whatever services it opened, and returns the exit code. */
export async function invokeCommand(command: Command, args: string[], options: InvokeOptions): Promise<number> {
  const { io } = options;
  const parseOptions = { ...command.options, ...GLOBAL_OPTIONS };
  let parsed: { values: OptionValues; positionals: string[] };
  try {
    const shielded = command.dashedPositionals ? shieldDashedPositionals(args, parseOptions) : args;
    parsed = parseArgs({ args: shielded, options: parseOptions, allowPositionals: true, strict: true }) as typeof parsed;
    parsed.positionals = parsed.positionals.map(unshield);
  } catch (error) {
    return reportUsage(io.stderr, command.name, optionErrorMessage(error));
  }
  if (parsed.values.help) {
    io.stdout.write(commandHelp(command));
    return EXIT.ok;
  }
  const dataDirValue = (parsed.values['data-dir'] as string | undefined) ?? options.dataDir;
  const dataDir = dataDirValue ? resolve(dataDirValue) : options.defaultDataDir();
  let services: Services | undefined;
  const ctx: CommandContext = {
    positionals: parsed.positionals,
    values: parsed.values,
    stdout: io.stdout,
    stderr: io.stderr,
    isTTY: io.stdout.isTTY === true,
    dataDir,
    services: () => {
      if (!services) {
        services = (options.openServices ?? openCliServices)(dataDir);
        for (const notice of services.info().notices) io.stderr.write(`benchlab: ${notice}\n`);
      }
      return services;
    },
  };
  try {
    return await command.run(ctx);
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(io.stderr, command.name, error.message);
    io.stderr.write(`benchlab ${command.name}: ${oneLine(error)}\n`);
    return exitCodeFor(error);
  } finally {
    // In order: what the command left in flight is ended or awaited before the store closes.
    await services?.close();
  }
}

/** Marks a positional that starts with "-" so the strict parser does not take it for an unknown option. */
const SHIELD = '\u0000';

function shieldDashedPositionals(args: string[], options: NonNullable<CommandOptions>): string[] {
  const shorts = new Set(Object.values(options).map((option) => option.short));
  return args.map((arg) => (/^-[^-]/.test(arg) && !(arg.length === 2 && shorts.has(arg[1]!)) ? `${SHIELD}${arg}` : arg));
}

function unshield(positional: string): string {
  return positional.startsWith(SHIELD) ? positional.slice(1) : positional;
}

export function openCliServices(dataDir: string): Services {
  return createServices({ dataDir, transport: 'cli', version: appVersion() });
}

function reportUsage(stderr: NodeJS.WritableStream, commandName: string, message: string): number {
  stderr.write(`benchlab ${commandName}: ${message}\nsee: benchlab ${commandName} --help\n`);
  return EXIT.badInput;
}

/** parseArgs's messages carry a long suggestion ("To specify a positional argument starting with a '-'…"); keep the first sentence. */
export function optionErrorMessage(error: unknown): string {
  const message = messageOf(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  return message.split('. ')[0]!.replace(/\.$/, '');
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

export function commandHelp(command: Command): string {
  return [
    `benchlab ${command.name}: ${command.summary}`,
    '',
    command.usage.trimEnd(),
    '',
    'global options:',
    '  --data-dir DIR   the data folder (default: BENCHLAB_DATA_DIR, else the app\'s user data folder)',
    '  -h, --help       this help',
    '',
    'example:',
    ...command.example
      .trim()
      .split('\n')
      .map((line) => `  ${line}`),
    '',
  ].join('\n');
}

// ---- output helpers ----

/** A plain aligned table, one header row; numbers are right-aligned so columns of figures read well. */
export function formatTable(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const isFigure = (cell: string | number | undefined) => typeof cell === 'number' || /^-?[\d.,]+\s?[a-zA-Z%/]*$/.test(String(cell));
  // A column of figures (or '-' where there is none) reads best right-aligned.
  const numeric = headers.map((_, column) => rows.some((row) => isFigure(row[column])) && rows.every((row) => isFigure(row[column]) || row[column] === '-'));
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n') + '\n';
}

export function writeJson(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The verb of a multi-verb command (`hosts list`), checked against the verbs it has. */
export function verbOf<Verb extends string>(ctx: CommandContext, verbs: readonly Verb[]): Verb {
  const verb = ctx.positionals[0];
  if (!verb) throw new UsageError(`missing what to do: one of ${verbs.join(', ')}`);
  if (!(verbs as readonly string[]).includes(verb)) throw new UsageError(`unknown action "${verb}": one of ${verbs.join(', ')}`);
  return verb as Verb;
}

/** Reads a string option, or undefined. */
export function stringOption(ctx: CommandContext, name: string): string | undefined {
  const value = ctx.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Reads a repeatable string option as a list. */
export function listOption(ctx: CommandContext, name: string): string[] {
  const value = ctx.values[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

/** Reads a whole-number option within bounds, refusing anything else as a usage error. */
export function intOption(ctx: CommandContext, name: string, min: number, max: number): number | undefined {
  const text = stringOption(ctx, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}
