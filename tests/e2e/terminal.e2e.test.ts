// The terminal end to end in web mode and real Chromium, on "This machine": type a command and read
// its echo from xterm's rendered rows, survive a flood with the page still answering, copy/paste,
// see the app's log lines in the log terminal and, from another page after a reload, in the log
// drawer's backlog; leave the page (and reload) with the shell still open, and close. Also checks
// xterm is styled under the CSP, cells in 24-bit colour included, with no style refused.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { expectCount } from '../support/browser.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { until } from '../support/until.ts';
import { LogDrawer } from './pages/log-drawer.ts';
import { TerminalPage } from './pages/terminal-page.ts';
import { childProcesses } from '../support/processes.ts';

let opened: OpenWebApp;
let page: Page;
let terminals: TerminalPage;
let panel: Locator;

before(async () => {
  opened = await openWebApp({ timeoutMs: 10_000, permissions: ['clipboard-read', 'clipboard-write'] });
  page = opened.page;
  terminals = new TerminalPage(page);
  const local = await terminals.addLocalHost();
  await terminals.open();
  panel = await terminals.openTerminal(local.name);
});

after(async () => {
  await opened?.close();
});

test('typing a command shows its output in the terminal', async () => {
  await terminals.type(panel, 'echo bench-$((20+22))');
  await terminals.press(panel, 'Enter');
  // The typed line reads "bench-$((20+22))": only the shell's answer is bench-42 on a line of its own.
  const rows = await terminals.waitForRows(panel, /^bench-42\s*$/);
  assert.match(rows, /bench-\$\(\(20\+22\)\)/, 'the typed command is echoed too');
});

test('xterm is styled although the CSP refuses inline <style> elements', async () => {
  const style = await terminals.rowsStyle(panel);
  // These come only from the rules xterm generates at run time (not from xterm.css).
  assert.equal(style.whiteSpace, 'pre');
  assert.match(style.fontFamily, /monospace/);
  assert.equal(style.color, 'rgb(223, 228, 236)');
});

test('cells in 24-bit colour show in their colours, and the CSP refuses no style', async () => {
  // Escapes typed as \033 and the number as $((6*7)): only printf's output reads truecolor-42.
  await terminals.type(panel, "printf '\\033[38;2;255;100;0;48;2;0;60;90m%s\\033[0m\\n' truecolor-$((6*7))");
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^truecolor-42\s*$/);
  assert.deepEqual(await terminals.cellColours(panel, 'truecolor-42'), { color: 'rgb(255, 100, 0)', background: 'rgb(0, 60, 90)' });
  assert.deepEqual(await opened.cspViolations(), []);
});

test('a flood keeps the page responsive and the prompt comes back', async () => {
  await terminals.type(panel, 'yes | head -n 200000');
  await terminals.press(panel, 'Enter');
  // While 400 KB stream through, the page keeps answering script calls and clicks: each is bounded
  // (a page that stopped answering fails here), none is timed.
  for (let i = 0; i < 10; i += 1) {
    await terminals.answersScript(1000);
    await terminals.status(panel).click({ timeout: 2000 });
  }

  // Typed after the flood started, run once it is over: the shell is back at its prompt.
  await terminals.type(panel, 'echo after-$((50+8))');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^after-58\s*$/, 30_000);
  assert.equal(await terminals.status(panel).getAttribute('data-state'), 'open');
});

test('pasted text (the browser paste event) goes to the shell', async () => {
  await terminals.paste(panel, 'echo pasted-$((3*3))');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^pasted-9\s*$/);
});

test('Ctrl+Shift+C copies the selection and Ctrl+Shift+V pastes into the shell', async () => {
  await terminals.type(panel, 'echo copyme-$((7*6))');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^copyme-42\s*$/);
  await terminals.selectWordOnRow(panel, /^copyme-42\s*$/);
  await page.keyboard.press('Control+Shift+C');
  assert.equal(await terminals.clipboardText(), 'copyme-42');

  await terminals.setClipboardText('echo from-clipboard-$((2+2))');
  await terminals.press(panel, 'Control+Shift+V');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^from-clipboard-4\s*$/);
});

test('the log terminal shows the app log as it happens', async () => {
  await terminals.addHost('log-probe');
  await terminals.waitForLog(/info\s+hosts: .*log-probe/);
});

test('the log drawer, opened on another page after a reload, shows the backlog kept by the back end', async () => {
  await terminals.addHost('backlog-probe');
  await terminals.waitForLog(/hosts: added host "backlog-probe"/);
  await terminals.leaveFor('hosts');
  await page.reload();
  await page.getByTestId('page-hosts').waitFor();
  const drawer = new LogDrawer(page);
  await drawer.open();
  // Written before this page was loaded: only the back end's backlog can show it.
  await drawer.waitForLine(/info\s+hosts: added host "backlog-probe"/);
  assert.ok((await drawer.topicsOnceOffered(['hosts'])).includes('hosts'), 'the picker offers the backlog\'s topics');
  await drawer.showTopic('hosts');
  await drawer.waitForLine(/hosts: added host "backlog-probe"/);
  // Live lines follow the backlog.
  await terminals.addHost('live-probe');
  await drawer.waitForLine(/hosts: added host "live-probe"/);
  await drawer.close();
  await terminals.comeBack(1);
});

test('a shell survives leaving the page and a reload, with its scrollback, and still takes input', async () => {
  await expectCount(terminals.panels(), 1);
  await terminals.type(panel, 'echo kept-$((11*11))');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^kept-121\s*$/);
  // Printed while no panel shows the shell: once the test has left the page.
  const marker = join(tmpdir(), `benchlab-e2e-away-${process.pid}`);
  rmSync(marker, { force: true });
  await terminals.type(panel, `until [ -e ${marker} ]; do sleep 0.05; done; echo away-$((6*6))`);
  await terminals.press(panel, 'Enter');

  await terminals.leaveFor('hosts');
  writeFileSync(marker, '');
  await terminals.comeBack(1);
  await expectCount(terminals.panels(), 1);
  await terminals.waitForRows(panel, /^kept-121\s*$/);
  await terminals.waitForRows(panel, /^away-36\s*$/);
  await terminals.type(panel, 'echo back-$((9*9))');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^back-81\s*$/);

  await page.reload();
  await terminals.comeBack(1);
  await expectCount(terminals.panels(), 1);
  await terminals.waitForRows(panel, /^back-81\s*$/);
  await terminals.type(panel, 'echo reloaded-$((4*5))');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^reloaded-20\s*$/);
  rmSync(marker, { force: true });
});

test('closing the panel ends the shell', async () => {
  // Each local shell is a util-linux `script` process under the web app.
  assert.equal(childProcesses(opened.app.process.pid!, 'script').length, 1);
  await panel.getByTestId('terminal-close').click();
  await expectCount(terminals.panels(), 0);
  await until(() => childProcesses(opened.app.process.pid!, 'script').length === 0, 'the shell to end, not just its panel', 5000);
  // Across everything above (reloads included): xterm's styles all went through CSSOM.
  assert.deepEqual(await opened.cspViolations(), []);
});
