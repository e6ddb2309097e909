// Page object for the Terminals page: open a shell on a host, type into it, read what xterm rendered,
// leave the page and come back to the shells still open.

import type { Locator, Page } from 'playwright-core';
import type { BenchlabApi } from '../../../app/contract.ts';
import type { Host } from '../../../app/hosts/hosts.ts';
import { expectAttribute, expectText } from '../../support/browser.ts';
import { waitForLogLine } from './log-terminal.ts';

/**
 * The little of the browser that the callbacks given to evaluate() use: they run in the page, but
 * are type-checked with Node's types (no DOM lib, so that main/ cannot use DOM globals by mistake).
 */
type PageGlobals = {
  benchlab: BenchlabApi;
  navigator: { clipboard: { readText(): Promise<string>; writeText(text: string): Promise<void> } };
  location: { hash: string };
  getComputedStyle(element: unknown): { whiteSpace: string; fontFamily: string; color: string; backgroundColor: string };
  DataTransfer: new () => { setData(format: string, data: string): void };
  ClipboardEvent: new (type: string, init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
};
type PageElement = { dispatchEvent(event: unknown): boolean };

export class TerminalPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  /** Stores "This machine" (idempotent) through the page's own API, as the UI would. */
  addLocalHost(): Promise<Host> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).benchlab.hosts.addLocal());
  }

  /** The page is reached by its hash route (#/terminals). */
  async open(): Promise<void> {
    await this.page.evaluate(() => {
      (globalThis as unknown as PageGlobals).location.hash = '/terminals';
    });
    await this.page.getByTestId('page-terminals').waitFor();
  }

  /** Opens a terminal on the host with this name and waits until its shell is connected. */
  async openTerminal(hostName: string): Promise<Locator> {
    const before = await this.panels().count();
    await this.page.getByTestId(`open-terminal-${hostName}`).click();
    const panel = this.panels().nth(before);
    const status = panel.getByTestId('terminal-status');
    if ((await expectAttribute(status, 'data-state', ['open', 'error'])) === 'error') throw new Error(`the terminal did not open: ${await status.innerText()}`);
    return panel;
  }

  /** Leaves for another page through the navigation, as a user would. */
  async leaveFor(pageId: string): Promise<void> {
    await this.page.getByTestId(`nav-${pageId}`).click();
    await this.page.getByTestId(`page-${pageId}`).waitFor();
  }

  /** Comes back through the navigation and waits until `count` panels show their shells again. */
  async comeBack(count: number): Promise<void> {
    await this.page.getByTestId('nav-terminals').click();
    await this.page.getByTestId('page-terminals').waitFor();
    for (let index = 0; index < count; index += 1) {
      const status = this.status(this.panels().nth(index));
      if ((await expectAttribute(status, 'data-state', ['open', 'error'])) === 'error') throw new Error(`the terminal did not come back: ${await status.innerText()}`);
    }
  }

  panels(): Locator {
    return this.page.getByTestId('terminal-panel');
  }

  status(panel: Locator): Locator {
    return panel.getByTestId('terminal-status');
  }

  /** Focuses the terminal and types as a user would (each character a key press). */
  async type(panel: Locator, text: string): Promise<void> {
    await panel.getByTestId('terminal').click();
    await this.page.keyboard.type(text);
  }

  async press(panel: Locator, key: string): Promise<void> {
    await panel.getByTestId('terminal').click();
    await this.page.keyboard.press(key);
  }

  /** The text of the rows xterm's DOM renderer shows now (the visible screen, not the scrollback). */
  rowsText(panel: Locator): Promise<string> {
    return panel.locator('.xterm-rows').innerText();
  }

  /** Waits until a visible row matches `row` (one row's text, anchors included); returns all the rows' text. */
  async waitForRows(panel: Locator, row: RegExp, timeoutMs = 10_000): Promise<string> {
    await expectText(panel.locator('.xterm-rows > div'), row, { timeout: timeoutMs });
    return this.rowsText(panel);
  }

  /** Styles the browser applied to the rows, from the rules xterm generates at run time. */
  rowsStyle(panel: Locator): Promise<{ whiteSpace: string; fontFamily: string; color: string }> {
    return panel.locator('.xterm-rows').evaluate((rows) => {
      const computed = (globalThis as unknown as PageGlobals).getComputedStyle(rows);
      return { whiteSpace: computed.whiteSpace, fontFamily: computed.fontFamily, color: computed.color };
    });
  }

  /** The colours the browser drew a visible run of cells in, found by its whole text (xterm draws a run of like cells as one span). */
  cellColours(panel: Locator, text: string): Promise<{ color: string; background: string }> {
    return panel
      .locator('.xterm-rows')
      .getByText(text, { exact: true })
      .first()
      .evaluate((cells) => {
        const computed = (globalThis as unknown as PageGlobals).getComputedStyle(cells);
        return { color: computed.color, background: computed.backgroundColor };
      });
  }

  /** Pastes as the browser does (a `paste` event with the clipboard's text) into the terminal. */
  async paste(panel: Locator, text: string): Promise<void> {
    await panel.getByTestId('terminal').click();
    await panel.locator('textarea.xterm-helper-textarea').evaluate((textarea, pasted) => {
      const page = globalThis as unknown as PageGlobals;
      const data = new page.DataTransfer();
      data.setData('text/plain', pasted);
      (textarea as unknown as PageElement).dispatchEvent(new page.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  }

  /** Selects the word at the start of the first visible row that matches `row` (a double click, as a user would). */
  async selectWordOnRow(panel: Locator, row: RegExp): Promise<void> {
    const box = await panel.locator('.xterm-rows > div', { hasText: row }).first().boundingBox();
    if (!box) throw new Error(`no visible row matches ${row}`);
    await this.page.mouse.dblclick(box.x + 12, box.y + box.height / 2);
  }

  /** The system clipboard, as the page sees it (the context needs clipboard permissions). */
  clipboardText(): Promise<string> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText());
  }

  setClipboardText(text: string): Promise<void> {
    return this.page.evaluate((value) => (globalThis as unknown as PageGlobals).navigator.clipboard.writeText(value), text);
  }

  /** Adds a host through the page's API (the back end logs it). */
  addHost(name: string): Promise<Host> {
    return this.page.evaluate(
      (hostName) => (globalThis as unknown as PageGlobals).benchlab.hosts.add({ name: hostName, address: '127.0.0.1', port: 22, user: 'root', auth: 'agent' }),
      name,
    );
  }

  /** A trivial script call: it comes back only if the page's main thread is free to run it. */
  async answersScript(timeoutMs: number): Promise<void> {
    await this.page.waitForFunction(() => true, undefined, { timeout: timeoutMs });
  }

  /** Waits until a line of the log terminal matches (see log-terminal.ts). */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<void> {
    return waitForLogLine(this.page, pattern, timeoutMs);
  }
}
