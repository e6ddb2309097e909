// Every `benchlab <command>`, in the order `benchlab --help` lists them. Each slice adds its own
// command here with a one-line edit.

import type { Command } from '../cli-kit.ts';
import { callCommand } from './call.ts';
import { hostsCommand } from './hosts.ts';

export const COMMANDS: Command[] = [
  hostsCommand,
  callCommand,
];
