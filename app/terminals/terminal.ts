// Terminal streams between a host's shell and xterm.js. Backpressure by acknowledgement: the back
// end stops reading the shell once UNACKED_LIMIT bytes are sent but not yet acknowledged by the UI,
// so a flood (`yes`) cannot bury the UI. A shell outlives the view that opened it: a view that comes
// back (the page opened again, the window reloaded) re-attaches and gets its scrollback.

import { z } from 'zod';

/** Bytes the back end may have in flight to one terminal before it pauses the shell. */
export const UNACKED_LIMIT = 256 * 1024;
/** The UI acknowledges after rendering at least this many bytes (and at the end of each burst). */
export const ACK_EVERY = 32 * 1024;

export const TerminalId = z.string().regex(/^t[0-9]+$/, 'must be a terminal id');

export const TerminalSize = z.object({
  cols: z.number().int().min(10, 'must be at least 10').max(1000, 'must be at most 1000'),
  rows: z.number().int().min(2, 'must be at least 2').max(500, 'must be at most 500'),
});

/** Output: `seq` counts the terminal's events from 1, so a view that re-attaches knows which its scrollback held. */
export const TerminalData = z.object({ terminalId: z.string(), data: z.string(), bytes: z.number().int(), seq: z.number().int() });
export const TerminalExit = z.object({ terminalId: z.string(), code: z.number().nullable() });

/** An open shell, for a view that comes back to it. */
export const OpenTerminalInfo = z.object({ terminalId: z.string(), hostId: z.number().int(), size: TerminalSize });

/** What a view re-attaching gets: the output kept so far (its last SCROLLBACK_CHARS) and the `seq` of the last event in it. */
export const TerminalAttach = z.object({ scrollback: z.string(), seq: z.number().int() });

/** Output kept per terminal for a view that re-attaches (characters, trimmed at a line start). */
export const SCROLLBACK_CHARS = 256 * 1024;
