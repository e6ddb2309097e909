// `npm run web` started again on the same data dir: it serves on the same port when that is free,
// and a tab signed in before the restart still is (its WebSocket reconnects to the same address);
// with the port taken meanwhile it says so in one line and serves on another.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { WebSocket } from 'ws';
import { WEB_SOCKET_PATH } from '../../app/common/wire.ts';
import { startWebApp, type RunningWebApp } from '../../tests/support/web-app.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-web-port-'));
const staticDir = mkdtempSync(join(tmpdir(), 'benchlab-web-port-ui-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Benchlab</title>');
const running: RunningWebApp[] = [];
after(async () => {
  for (const app of running) await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

async function start(): Promise<RunningWebApp> {
  const app = await startWebApp({ dataDir, staticDir });
  running.push(app);
  return app;
}

/** Signs in with the printed one-time URL: the session cookie the browser would keep. */
async function signIn(app: RunningWebApp): Promise<string> {
  const response = await fetch(app.url, { redirect: 'manual' });
  await response.arrayBuffer();
  assert.equal(response.status, 303);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** Whether a tab with this cookie gets its WebSocket opened, as the renderer's reconnect would. */
function socketOpens(origin: string, cookie: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${origin.replace('http', 'ws')}${WEB_SOCKET_PATH}`, { headers: { cookie, origin } });
    socket.once('open', () => {
      socket.close();
      resolve(true);
    });
    socket.once('unexpected-response', () => resolve(false));
    socket.once('error', () => resolve(false));
  });
}

test('restarted on the same data dir, web mode keeps its port and the open tab stays signed in', async () => {
  const first = await start();
  const cookie = await signIn(first);
  assert.equal(await socketOpens(first.origin, cookie), true);
  await first.stop();

  const second = await start();
  assert.equal(second.origin, first.origin, 'the same port');
  assert.equal(await socketOpens(second.origin, cookie), true, 'the tab reconnects signed in');
  assert.equal(await socketOpens(second.origin, 'benchlab_session=0000'), false, 'an unknown cookie still does not');
  const page = await fetch(`${second.origin}/`, { headers: { cookie } });
  await page.arrayBuffer();
  assert.equal(page.status, 200);
});

test('with the last port taken, another one is used and the start says so in one line', async () => {
  const holder = running.at(-1)!;
  const third = await start();
  assert.notEqual(third.origin, holder.origin);
  const lines = third.output().split('\n').filter((line) => line.includes('used last time, is taken now'));
  assert.equal(lines.length, 1, third.output());
  assert.match(lines[0]!, new RegExp(`^benchlab: port ${new URL(holder.origin).port}, used last time`));
});
