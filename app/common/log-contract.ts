// The app's log as the contract carries it: a log line (the `log` event), and the backlog the back
// end keeps so a log panel opened later, or a page reloaded, still shows what happened — the last
// lines of each topic (each deploy, build and run) rather than only the newest lines of all, which
// one chatty server would fill. Also the pure rule that names a line's topic.

import { z } from 'zod';
import { NoArgs, request } from './contract-kit.ts';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const LogLine = z.object({
  at: z.string(),
  level: z.enum(LOG_LEVELS),
  source: z.string(),
  message: z.string(),
  /**
   * A progress line (a build's downloads so far): it replaces the topic's previous progress line
   * instead of adding one, and is not stored with the session's story.
   */
  progress: z.boolean().optional(),
});
export type LogLine = z.infer<typeof LogLine>;

export const LogTopicBacklog = z.object({
  /** The topic's name, e.g. "templates: lab-server build" or "runs: nginx sweep". */
  topic: z.string(),
  /** Its last lines, oldest first. */
  lines: z.array(LogLine),
  /** Its current progress line, when its last progress was not followed by a final line. */
  progress: LogLine.nullable(),
});
export type LogTopicBacklog = z.infer<typeof LogTopicBacklog>;

export const LogBacklog = z.object({
  /** Topics, the one with the oldest latest line first. */
  topics: z.array(LogTopicBacklog),
});
export type LogBacklog = z.infer<typeof LogBacklog>;

export const logRequests = {
  'log.backlog': request(NoArgs, LogBacklog),
} as const;

/** The longest message prefix taken as a line's subject ("lab-server build" in "lab-server build: [INFO] …"). */
const MAX_SUBJECT = 60;

/**
 * The topic a line belongs to: its source and the subject its message starts with — services log
 * "<host> build: …", "<host>: deploying …", "<session>: step 2 …" — or the source alone when the
 * message names none.
 */
export function logTopic(line: Pick<LogLine, 'source' | 'message'>): string {
  const colon = line.message.indexOf(': ');
  const subject = colon > 0 && colon <= MAX_SUBJECT ? line.message.slice(0, colon) : '';
  return subject && !subject.includes('\n') ? `${line.source}: ${subject}` : line.source;
}
