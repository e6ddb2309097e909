// Page object for the Presets page: tests speak in user actions, selectors live here.

import type { Locator, Page } from 'playwright-core';

export class PresetsPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-presets').click();
    await this.page.getByTestId('page-presets').waitFor();
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
    await host.getByTestId('plan').waitFor();
    return host;
  }

  planRow(host: Locator, key: string): Locator {
    return host.locator(`[data-testid="plan-row"][data-key="${key}"]`);
  }

  /** Apply, confirm, and wait for the verification table. */
  async applyAndConfirm(host: Locator): Promise<Locator> {
    await host.getByTestId('preset-apply').click();
    await host.getByTestId('apply-confirmation').waitFor();
    await host.getByTestId('preset-apply-confirm').click();
    const verification = host.getByTestId('verification');
    await verification.waitFor({ timeout: 30000 });
    return verification;
  }

  verdict(host: Locator, key: string): Locator {
    return host.locator(`[data-testid="verdict-row"][data-key="${key}"]`);
  }

  pendingRevert(hostName: string): Locator {
    return this.page.locator(`[data-testid="pending-revert"][data-host-name="${hostName}"]`);
  }

  async revert(host: Locator): Promise<Locator> {
    await host.getByTestId('preset-revert').click();
    const result = host.getByTestId('revert-result');
    await result.waitFor({ timeout: 30000 });
    return result;
  }
}
