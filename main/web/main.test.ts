// `npm run web` as a process: its pid and how to get a new one-time URL are printed at start, and
// SIGUSR2 makes it print a fresh URL that opens it once, spending no other URL.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { until } from '../../tests/support/until.ts';
import { startWebApp, type RunningWebApp } from '../../tests/support/web-app.ts';

let staticDir: string;
let app: RunningWebApp;

before(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'benchlab-web-main-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Benchlab</title>');
  app = await startWebApp({ staticDir });
});

after(async () => {
  await app?.stop();
  rmSync(staticDir, { recursive: true, force: true });
});

/** The status of opening a URL, and the session cookie it set. */
async function open(url: string): Promise<{ status: number; cookie: string | undefined }> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  return { status: response.status, cookie: response.headers.get('set-cookie')?.split(';')[0] };
}

test('the start lines name the pid and how to get a new link; without a terminal, only the signal is offered', async () => {
  const pid = app.process.pid!;
  assert.match(app.output(), new RegExp(`\\(data: .*, pid ${pid}\\) — open http://127\\.0\\.0\\.1:\\d+/\\?token=`));
  const hint = await until(() => /^Each link opens Benchlab once\..*$/m.exec(app.output())?.[0], 'the line on new links', 5000);
  assert.equal(hint, `Each link opens Benchlab once. For a new one, run: kill -USR2 ${pid}`);
});

test('SIGUSR2 prints a fresh URL that opens web mode once; the printed one still works once too', async () => {
  const fresh = await app.newUrl();
  assert.notEqual(fresh, app.url);
  assert.match(app.output(), /New one-time link — open http:/);
  const first = await open(fresh);
  assert.equal(first.status, 303);
  assert.equal((await open(fresh)).status, 401);
  // Minting did not spend the URL printed at start.
  const printed = await open(app.url);
  assert.equal(printed.status, 303);
  assert.notEqual(printed.cookie, first.cookie);
  for (const cookie of [first.cookie, printed.cookie]) {
    const page = await fetch(`${app.origin}/`, { headers: { cookie: cookie! } });
    assert.equal(page.status, 200);
    await page.arrayBuffer();
  }
  assert.match(app.output(), /benchlab: refused a one-time link that was already used/);
});
