// Web mode's logins: one-time URL tokens and the session cookies they are exchanged for. Tokens are
// held in memory only, so every unused URL dies with the process that minted it; the cookies'
// digests may be handed to `onSessions` to be remembered (web-mode-memory.ts) and given back at the
// next start, so a tab left open across a restart stays signed in.
//
// A token is spent by its first exchange, so a URL that leaked (shell history, a screen share, a
// proxy log) cannot be replayed; each exchange mints a cookie of its own, valid for
// SESSION_LIFETIME_MS (the cookie's Max-Age: closing the browser does not sign out), so a tab that
// is already open keeps working when another link is used.
// Secrets are kept and looked up by their SHA-256 digest: a lookup's timing says nothing about them.

import { createHash } from 'node:crypto';
import { newSecret } from './security.ts';
import { SESSION_LIFETIME_MS, type RememberedSession } from './web-mode-memory.ts';

export type Exchange = { outcome: 'session'; cookie: string } | { outcome: 'spent' } | { outcome: 'unknown' };

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface WebLoginsOptions {
  /** Sessions a previous web mode minted that are still honoured. */
  remembered?: readonly RememberedSession[];
  /** Every session now honoured, each time one is minted. */
  onSessions?: (sessions: RememberedSession[]) => void;
  now?: () => number;
}

export class WebLogins {
  readonly #unusedTokens = new Set<string>();
  readonly #spentTokens = new Set<string>();
  /** Session digest → when it was minted. */
  readonly #sessions = new Map<string, number>();
  readonly #options: WebLoginsOptions;

  constructor(options: WebLoginsOptions = {}) {
    this.#options = options;
    for (const session of options.remembered ?? []) this.#sessions.set(session.digest, session.mintedAt);
  }

  /** A fresh token for one more URL; no other token or session is touched. */
  mintToken(): string {
    const token = newSecret();
    this.#unusedTokens.add(digest(token));
    return token;
  }

  /** Spends a token: the first exchange gets a new session cookie, any later one `spent`. */
  exchange(token: string): Exchange {
    const key = digest(token);
    if (this.#unusedTokens.delete(key)) {
      this.#spentTokens.add(key);
      const cookie = newSecret();
      this.#sessions.set(digest(cookie), (this.#options.now ?? Date.now)());
      this.#options.onSessions?.([...this.#sessions].map(([key, mintedAt]) => ({ digest: key, mintedAt })));
      return { outcome: 'session', cookie };
    }
    return this.#spentTokens.has(key) ? { outcome: 'spent' } : { outcome: 'unknown' };
  }

  isSession(cookie: string | undefined): boolean {
    if (cookie === undefined) return false;
    const mintedAt = this.#sessions.get(digest(cookie));
    return mintedAt !== undefined && (this.#options.now ?? Date.now)() - mintedAt < SESSION_LIFETIME_MS;
  }
}
