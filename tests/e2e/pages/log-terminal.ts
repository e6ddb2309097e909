// The log terminal (the app's log lines in xterm), which the Templates and the Terminals pages both
// show, and the log drawer shows on every page: one way to wait for a line in it.

import type { Page } from 'playwright-core';
import { expectText } from '../../support/browser.ts';

/** Waits until the log terminal's visible rows match (xterm's DOM renderer shows the screen, not the scrollback). */
export async function waitForLogLine(page: Page, pattern: RegExp, timeoutMs = 10_000, testId = 'log-terminal'): Promise<void> {
  const terminal = page.getByTestId(testId);
  // xterm does not render while off screen.
  await terminal.scrollIntoViewIfNeeded();
  // The rows' text runs on from row to row; a space in the pattern may be any run of blanks there.
  const acrossRows = new RegExp(pattern.source.replaceAll(' ', String.raw`\s+`), pattern.flags);
  await expectText(terminal.locator('.xterm-rows'), acrossRows, { timeout: timeoutMs });
}
