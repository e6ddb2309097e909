// What web mode keeps in the data dir between starts (web-mode.json, readable by its owner only):
// the port it served on, taken again when it is free, and the digests of the session cookies it
// handed out, so a tab left open across a restart reconnects and is still signed in. Only SHA-256
// digests are stored, never a cookie; a remembered one is honoured for SESSION_LIFETIME_MS after it
// was minted, and at most MAX_REMEMBERED_SESSIONS of the newest are kept.

import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const WEB_MODE_FILE = 'web-mode.json';
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const MAX_REMEMBERED_SESSIONS = 50;

export interface RememberedSession {
  /** SHA-256 of the cookie, hex. */
  digest: string;
  /** When the cookie was minted, epoch ms. */
  mintedAt: number;
}

export interface WebModeMemory {
  /** The port the last web mode on this data dir served on; null when none did. */
  port: number | null;
  sessions: RememberedSession[];
}

const isPort = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= 65535;
const isSession = (value: unknown): value is RememberedSession => {
  const entry = value as Partial<RememberedSession> | null;
  return typeof entry?.digest === 'string' && /^[0-9a-f]{64}$/.test(entry.digest) && Number.isFinite(entry.mintedAt);
};

/** The sessions still within their lifetime, newest first, at most the cap. */
export function liveSessions(sessions: readonly RememberedSession[], now = Date.now()): RememberedSession[] {
  return sessions
    .filter((session) => now - session.mintedAt < SESSION_LIFETIME_MS && session.mintedAt <= now)
    .sort((a, b) => b.mintedAt - a.mintedAt)
    .slice(0, MAX_REMEMBERED_SESSIONS);
}

/** What the last web mode left; nothing remembered when the file is missing or unreadable. */
export function loadWebModeMemory(dataDir: string, now = Date.now()): WebModeMemory {
  let parsed: { port?: unknown; sessions?: unknown } | null;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, WEB_MODE_FILE), 'utf8')) as typeof parsed;
  } catch {
    return { port: null, sessions: [] };
  }
  const sessions = Array.isArray(parsed?.sessions) ? parsed.sessions.filter(isSession) : [];
  return { port: isPort(parsed?.port) ? parsed.port : null, sessions: liveSessions(sessions, now) };
}

/** Written whole to a temporary file and renamed over the old one, so a crash leaves one or the other. */
export function saveWebModeMemory(dataDir: string, memory: WebModeMemory): void {
  const file = join(dataDir, WEB_MODE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ port: memory.port, sessions: liveSessions(memory.sessions) }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
