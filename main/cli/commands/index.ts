// Every `benchlab <command>`, in the order `benchlab --help` lists them. Each slice adds its own
// command here with a one-line edit.

import type { Command } from '../cli-kit.ts';
import { callCommand } from './call.ts';
import { compareCommand } from './compare.ts';
import { deployCommand, stopCommand } from './deploy.ts';
import { hostsCommand } from './hosts.ts';
import { importCommand } from './import.ts';
import { presetsCommand } from './presets.ts';
import { runCommand } from './run.ts';
import { sessionsCommand } from './sessions.ts';

export const COMMANDS: Command[] = [
  runCommand,
  hostsCommand,
  sessionsCommand,
  compareCommand,
  importCommand,
  presetsCommand,
  deployCommand,
  stopCommand,
  callCommand,
];
