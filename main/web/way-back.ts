// How a person signed out of web mode (a new browser, cookies cleared, a link used twice) gets a
// new one-time link, in the words that work for the way this process was started: `npm start`'s
// web fallback (Enter reaches it through npm start, which forwards it as SIGUSR2), `npm run web` in
// a terminal's foreground (Enter), or in the background or under a script (only the signal). The
// 401 pages and the start lines say the same thing, with this process's real pid.

export interface WayBackFacts {
  /** The command a person typed: `npm start`, `npm run web`, or `node main/web/main.ts`. */
  startedBy: string;
  /** Enter at that command's terminal mints a link (read here, or forwarded by npm start). */
  enterWorks: boolean;
  pid: number;
  /** Windows has no SIGUSR2. */
  platform?: NodeJS.Platform;
}

/** Set by `npm start` for its web fallback: the command typed, and whether it forwards Enter. */
export const STARTED_BY_ENV = 'BENCHLAB_WEB_STARTED_BY';
export const ENTER_FORWARDED_ENV = 'BENCHLAB_WEB_ENTER_FORWARDED';

/** The command that started web mode, from what npm start says or npm's own lifecycle variable. */
export function startedBy(env: NodeJS.ProcessEnv = process.env): string {
  const told = env[STARTED_BY_ENV]?.trim();
  if (told) return told;
  return env.npm_lifecycle_event === 'web' ? 'npm run web' : 'node main/web/main.ts';
}

/** One sentence, commands in backticks: "For a new link, press Enter in the terminal where `npm start` runs, or run `kill -USR2 4242`." */
export function wayBack(facts: WayBackFacts): string {
  const signal = (facts.platform ?? process.platform) === 'win32' ? null : `\`kill -USR2 ${facts.pid}\``;
  const enter = `press Enter in the terminal where \`${facts.startedBy}\` runs`;
  if (facts.enterWorks) return `For a new link, ${enter}${signal ? `, or run ${signal}` : ''}.`;
  if (signal) return `For a new link, run ${signal} (web mode started by \`${facts.startedBy}\`, pid ${facts.pid}): it prints the link where it prints its output.`;
  return `For a new link, stop web mode (started by \`${facts.startedBy}\`) and start it again in a terminal.`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The sentence as HTML: escaped, each `command` as <code>. */
export function wayBackHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]*)`/g, '<code>$1</code>');
}
