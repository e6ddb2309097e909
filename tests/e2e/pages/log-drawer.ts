// Page object for the log drawer: opened from the status bar on any page, narrowed to a topic (one
// deploy, build or run), and read through its log terminal's rendered rows.

import type { Locator, Page } from 'playwright-core';
import { waitForLogLine } from './log-terminal.ts';

export class LogDrawer {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  drawer(): Locator {
    return this.page.getByTestId('log-drawer');
  }

  /** Opens the drawer from the status bar (it may already be open: the choice outlives a reload). */
  async open(): Promise<void> {
    const toggle = this.page.getByTestId('status-log');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await this.drawer().getByTestId('log-drawer-terminal').waitFor();
  }

  async close(): Promise<void> {
    await this.drawer().getByTestId('log-drawer-close').click();
    await this.drawer().waitFor({ state: 'detached' });
  }

  /**
   * The topics the picker offers (without "Everything") once it offers each of `wanted`, or as it
   * offers them after `timeoutMs`: the drawer loads its backlog after it opens, so a picker read at
   * once may not have it yet.
   */
  async topicsOnceOffered(wanted: readonly string[], timeoutMs = 15_000): Promise<string[]> {
    const picker = this.drawer().getByTestId('log-drawer-topic');
    await Promise.all(wanted.map((topic) => picker.locator(`option[value="${topic}"]`).waitFor({ state: 'attached', timeout: timeoutMs }))).catch(() => undefined);
    return this.topics();
  }

  /** The topics the picker offers now (without "Everything"). */
  async topics(): Promise<string[]> {
    const values = await this.drawer().getByTestId('log-drawer-topic').locator('option').evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
    return values.filter((value) => value !== '');
  }

  /** Shows only this topic's lines ("templates: lab-server build"); '' for everything. */
  async showTopic(topic: string): Promise<void> {
    await this.drawer().getByTestId('log-drawer-topic').selectOption(topic);
  }

  /** Waits until a visible row of the drawer's log matches (see log-terminal.ts). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<void> {
    return waitForLogLine(this.page, pattern, timeoutMs, 'log-drawer-terminal');
  }

  /** The rows the drawer's log shows now. */
  rowsText(): Promise<string> {
    return this.drawer().locator('.xterm-rows').innerText();
  }
}
