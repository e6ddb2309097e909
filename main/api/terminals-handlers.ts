// The `terminal.*` requests of the contract, over the TerminalManager. Arguments arrive validated;
// unknown terminal ids and hosts that are not connected surface as the manager's ApiErrors.

import type { TerminalManager } from '../services/terminals/terminal-service.ts';
import type { Handlers } from './handlers.ts';

export type TerminalHandlers = Pick<Handlers, 'terminal.open' | 'terminal.input' | 'terminal.resize' | 'terminal.ack' | 'terminal.close'>;

export function createTerminalHandlers(terminals: TerminalManager): TerminalHandlers {
  return {
    'terminal.open': async ({ hostId, size }) => ({ terminalId: await terminals.open(hostId, size) }),
    'terminal.input': ({ terminalId, data }) => {
      terminals.input(terminalId, data);
      return {};
    },
    'terminal.resize': ({ terminalId, size }) => {
      terminals.resize(terminalId, size);
      return {};
    },
    'terminal.ack': ({ terminalId, bytes }) => {
      terminals.ack(terminalId, bytes);
      return {};
    },
    'terminal.close': ({ terminalId }) => {
      terminals.close(terminalId);
      return {};
    },
  };
}
