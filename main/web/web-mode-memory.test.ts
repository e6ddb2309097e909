// What web mode remembers between starts: the port and the session digests, written owner-only,
// read back with the expired and malformed left out; and the logins honour a remembered cookie.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { WebLogins } from './web-logins.ts';
import { loadWebModeMemory, MAX_REMEMBERED_SESSIONS, saveWebModeMemory, SESSION_LIFETIME_MS, WEB_MODE_FILE, type RememberedSession } from './web-mode-memory.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-web-memory-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const digestOf = (cookie: string) => createHash('sha256').update(cookie).digest('hex');
const session = (n: number, mintedAt: number): RememberedSession => ({ digest: digestOf(`cookie-${n}`), mintedAt });

test('nothing remembered before a first start, or from a file that is not ours', () => {
  assert.deepEqual(loadWebModeMemory(dir), { port: null, sessions: [] });
  writeFileSync(join(dir, WEB_MODE_FILE), '{ not json');
  assert.deepEqual(loadWebModeMemory(dir), { port: null, sessions: [] });
  writeFileSync(join(dir, WEB_MODE_FILE), JSON.stringify({ port: 70000, sessions: [{ digest: 'short', mintedAt: 1 }, 'x'] }));
  assert.deepEqual(loadWebModeMemory(dir), { port: null, sessions: [] });
});

test('the port and the live sessions come back; the expired and the oldest past the cap do not', () => {
  const now = Date.now();
  const fresh = Array.from({ length: MAX_REMEMBERED_SESSIONS + 3 }, (_, i) => session(i, now - i * 1000));
  const expired = session(999, now - SESSION_LIFETIME_MS - 1);
  saveWebModeMemory(dir, { port: 41234, sessions: [expired, ...fresh] });
  assert.equal(statSync(join(dir, WEB_MODE_FILE)).mode & 0o777, 0o600, 'readable by its owner only');
  const memory = loadWebModeMemory(dir, now);
  assert.equal(memory.port, 41234);
  assert.deepEqual(memory.sessions, fresh.slice(0, MAX_REMEMBERED_SESSIONS));
});

test('a remembered cookie is signed in; a new one is handed over to be remembered, with the others', () => {
  const remembered = session(1, 1000);
  let handed: RememberedSession[] = [];
  const logins = new WebLogins({ remembered: [remembered], onSessions: (sessions) => (handed = sessions), now: () => 5000 });
  assert.equal(logins.isSession('cookie-1'), true);
  assert.equal(logins.isSession('cookie-2'), false);
  const exchange = logins.exchange(logins.mintToken());
  assert.equal(exchange.outcome, 'session');
  const cookie = exchange.outcome === 'session' ? exchange.cookie : '';
  assert.deepEqual(handed, [remembered, { digest: digestOf(cookie), mintedAt: 5000 }]);
  assert.ok(!JSON.stringify(handed).includes(cookie), 'only digests leave the logins');
});
