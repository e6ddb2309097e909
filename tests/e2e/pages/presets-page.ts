// Page object for the Presets page: tests speak in user actions, selectors live here.

import type { Locator, Page } from 'playwright-core';
import { NavPage } from './nav-page.ts';

export class PresetsPage extends NavPage {
  constructor(page: Page) {
    super(page, 'presets');
  }

  async select(name: string): Promise<void> {
    await this.page.getByTestId('preset-row').filter({ hasText: name }).click();
    await this.page.getByTestId('preset-title').filter({ hasText: name }).waitFor();
  }

  async duplicate(): Promise<Locator> {
    await this.page.getByTestId('preset-duplicate').click();
    const editor = this.page.getByTestId('preset-editor');
    await editor.waitFor();
    return editor;
  }

  field(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`preset-error-${field}`);
  }

  async save(): Promise<void> {
    await this.page.getByTestId('preset-save').click();
    await this.page.getByTestId('preset-editor').waitFor({ state: 'detached' });
  }

  host(name: string): Locator {
    return this.page.locator(`[data-testid="preset-host"][data-host-name="${name}"]`);
  }

  async plan(hostName: string): Promise<Locator> {
    const host = this.host(hostName);
    await host.getByTestId('preset-plan').click();
    await this.#outcome(host, 'plan');
    return host;
  }

  /** Waits for what a host operation shows, failing with the page's own error message if it shows one. */
  async #outcome(host: Locator, testId: string): Promise<Locator> {
    const shown = host.getByTestId(testId);
    const error = host.getByTestId('preset-error');
    // SSH work on a busy machine can be slow: a generous bound, and the error text when there is one.
    await shown.or(error).first().waitFor({ timeout: 45000 });
    if (await error.isVisible()) throw new Error(`the page reports: ${await error.innerText()}`);
    return shown;
  }

  planRow(host: Locator, key: string): Locator {
    return host.locator(`[data-testid="plan-row"][data-key="${key}"]`);
  }

  /** Apply, confirm, and wait for the verification table. */
  async applyAndConfirm(host: Locator): Promise<Locator> {
    await host.getByTestId('preset-apply').click();
    await host.getByTestId('apply-confirmation').waitFor();
    await host.getByTestId('preset-apply-confirm').click();
    return this.#outcome(host, 'verification');
  }

  verdict(host: Locator, key: string): Locator {
    return host.locator(`[data-testid="verdict-row"][data-key="${key}"]`);
  }

  pendingRevert(hostName: string): Locator {
    return this.page.locator(`[data-testid="pending-revert"][data-host-name="${hostName}"]`);
  }

  async revert(host: Locator): Promise<Locator> {
    await host.getByTestId('preset-revert').click();
    return this.#outcome(host, 'revert-result');
  }
}
