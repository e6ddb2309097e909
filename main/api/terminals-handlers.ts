// The `terminal.*` requests, over the TerminalManager. Arguments arrive validated; unknown terminal
// ids and hosts that are not connected surface as the manager's ApiErrors.

import type { terminalRequests } from '../../app/terminals/terminals-contract.ts';
import type { TerminalManager } from '../services/terminals/terminal-service.ts';
import { noAnswer, type HandlersFor } from './handler-kit.ts';

export function createTerminalHandlers(terminals: TerminalManager): HandlersFor<typeof terminalRequests> {
  return {
    'terminal.open': async ({ hostId, size }) => ({ terminalId: await terminals.open(hostId, size) }),
    'terminal.input': ({ terminalId, data }) => noAnswer(terminals.input(terminalId, data)),
    'terminal.resize': ({ terminalId, size }) => noAnswer(terminals.resize(terminalId, size)),
    'terminal.ack': ({ terminalId, bytes }) => noAnswer(terminals.ack(terminalId, bytes)),
    'terminal.list': () => ({ terminals: terminals.openTerminals() }),
    'terminal.attach': ({ terminalId }) => terminals.attach(terminalId),
    'terminal.detach': ({ terminalId }) => noAnswer(terminals.detach(terminalId)),
    'terminal.close': ({ terminalId }) => noAnswer(terminals.close(terminalId)),
  };
}
