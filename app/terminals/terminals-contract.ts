// The `terminal.*` part of the contract: a shell on a connected host — open, type, resize, close —
// with acknowledged output so a noisy command cannot flood the UI; the open shells listed, left by
// their view (detach) and attached again with their scrollback by a view that comes back to them. Events: `terminal.data` (output
// bytes) and `terminal.exit`.

import { z } from 'zod';
import { NoArgs, request } from '../common/contract-kit.ts';
import { HostId } from '../hosts/hosts.ts';
import { OpenTerminalInfo, TerminalAttach, TerminalData, TerminalExit, TerminalId, TerminalSize } from './terminal.ts';

export const terminalRequests = {
  'terminal.open': request(z.object({ hostId: HostId, size: TerminalSize }).strict(), z.object({ terminalId: z.string() })),
  'terminal.input': request(z.object({ terminalId: TerminalId, data: z.string().max(64 * 1024, 'is too long') }).strict(), z.object({})),
  'terminal.resize': request(z.object({ terminalId: TerminalId, size: TerminalSize }).strict(), z.object({})),
  'terminal.ack': request(z.object({ terminalId: TerminalId, bytes: z.number().int().min(0) }).strict(), z.object({})),
  'terminal.list': request(NoArgs, z.object({ terminals: z.array(OpenTerminalInfo) })),
  'terminal.attach': request(z.object({ terminalId: TerminalId }).strict(), TerminalAttach),
  'terminal.detach': request(z.object({ terminalId: TerminalId }).strict(), z.object({})),
  'terminal.close': request(z.object({ terminalId: TerminalId }).strict(), z.object({})),
} as const;

export const terminalEvents = {
  'terminal.data': TerminalData,
  'terminal.exit': TerminalExit,
} as const;
