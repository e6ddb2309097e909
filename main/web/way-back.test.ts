// The way back in after signing out is told for the way web mode was started: Enter where it works
// (npm run web in the foreground, npm start which forwards it), else the signal with the real pid;
// and a login lasts SESSION_LIFETIME_MS whether or not the browser was closed in between.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startedBy, wayBack, wayBackHtml } from './way-back.ts';
import { WebLogins } from './web-logins.ts';
import { SESSION_LIFETIME_MS } from './web-mode-memory.ts';

test('npm start and npm run web in a terminal: Enter where that command runs, or the signal with the pid', () => {
  assert.equal(wayBack({ startedBy: 'npm start', enterWorks: true, pid: 4242, platform: 'linux' }), 'For a new link, press Enter in the terminal where `npm start` runs, or run `kill -USR2 4242`.');
  assert.equal(wayBack({ startedBy: 'npm run web', enterWorks: true, pid: 7, platform: 'linux' }), 'For a new link, press Enter in the terminal where `npm run web` runs, or run `kill -USR2 7`.');
});

test('in the background (no terminal read): never "press Enter", the signal with the real pid', () => {
  const way = wayBack({ startedBy: 'npm run web', enterWorks: false, pid: 4242, platform: 'linux' });
  assert.doesNotMatch(way, /Enter/);
  assert.equal(way, 'For a new link, run `kill -USR2 4242` (web mode started by `npm run web`, pid 4242): it prints the link where it prints its output.');
  assert.match(wayBack({ startedBy: 'npm start', enterWorks: false, pid: 1, platform: 'win32' }), /stop web mode \(started by `npm start`\) and start it again/);
});

test('who started web mode: what npm start says, else npm run web by npm\'s lifecycle variable', () => {
  assert.equal(startedBy({ BENCHLAB_WEB_STARTED_BY: 'npm start', npm_lifecycle_event: 'start' }), 'npm start');
  assert.equal(startedBy({ npm_lifecycle_event: 'web' }), 'npm run web');
  assert.equal(startedBy({}), 'node main/web/main.ts');
});

test('as HTML: escaped, commands as code', () => {
  assert.equal(wayBackHtml('run `kill -USR2 <1>` & go'), 'run <code>kill -USR2 &#60;1&#62;</code> &#38; go');
});

test('a login is honoured for its lifetime, in this process as after a restart, and not after', () => {
  let now = 1_000_000;
  const logins = new WebLogins({ now: () => now });
  const exchange = logins.exchange(logins.mintToken());
  assert.ok(exchange.outcome === 'session');
  now += SESSION_LIFETIME_MS - 1;
  assert.equal(logins.isSession(exchange.cookie), true);
  now += 1;
  assert.equal(logins.isSession(exchange.cookie), false);
});
