// Page object for the Hosts page: tests speak in user actions, selectors live here.

import type { Locator, Page } from 'playwright-core';
import { expectText } from '../../support/browser.ts';
import { NavPage } from './nav-page.ts';

export interface HostFormValues {
  name: string;
  address: string;
  port?: string;
  user: string;
  auth?: 'agent' | 'key' | 'password';
  keyPath?: string;
}

/** Whether connecting this host asks for something first (a password, or sudo's of a user other than root); otherwise it connects at once. */
export function asksBeforeConnecting(values: Pick<HostFormValues, 'user' | 'auth'>): boolean {
  return values.auth === 'password' || values.user !== 'root';
}

export class HostsPage extends NavPage {
  constructor(page: Page) {
    super(page, 'hosts');
  }

  async fill(values: HostFormValues): Promise<void> {
    await this.page.getByTestId('host-name').fill(values.name);
    await this.page.getByTestId('host-address').fill(values.address);
    if (values.port !== undefined) await this.page.getByTestId('host-port').fill(values.port);
    await this.page.getByTestId('host-user').fill(values.user);
    if (values.auth) await this.page.getByTestId('host-auth').selectOption(values.auth);
    if (values.keyPath !== undefined) await this.page.getByTestId('host-keyPath').fill(values.keyPath);
  }

  async add(values: HostFormValues): Promise<void> {
    await this.page.getByTestId('host-add').click();
    await this.fill(values);
    await this.page.getByTestId('host-save').click();
    await this.row(values.name).waitFor();
  }

  /** Adds a host and connects it, trusting the key it presents on first use. */
  async addTrusted(values: HostFormValues): Promise<void> {
    await this.add(values);
    const dialog = await this.startConnect(values.name);
    if (asksBeforeConnecting(values)) await dialog.getByTestId('connect-submit').click();
    await dialog.getByTestId('trust-key').click();
    await this.waitForState(values.name, 'connected');
  }

  /** Opens the page and adds a lab host (root with the lab's key) under `name`, connected and its key trusted. */
  async addLabHost(name: string, host: { address: string; port: number }, keyPath: string): Promise<void> {
    await this.open();
    await this.addTrusted({ name, address: host.address, port: String(host.port), user: 'root', auth: 'key', keyPath });
  }

  /** Adds "This machine" from the page. */
  async addLocal(): Promise<void> {
    await this.open();
    await this.page.getByTestId('host-add-local').click();
    await this.rows().first().waitFor();
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="host-row"][data-host-name="${name}"]`);
  }

  rows(): Locator {
    return this.page.getByTestId('host-row');
  }

  /** Opens the connect dialog of a host. */
  async startConnect(name: string): Promise<Locator> {
    await this.row(name).getByTestId('host-connect').click();
    const dialog = this.page.getByTestId('connect-dialog');
    await dialog.waitFor();
    return dialog;
  }

  state(name: string): Locator {
    return this.row(name).getByTestId('host-state');
  }

  async waitForState(name: string, label: string, timeout = 15000): Promise<void> {
    await expectText(this.state(name), label, { timeout });
  }

  async expand(name: string): Promise<void> {
    await this.row(name).getByRole('button', { name: new RegExp(name) }).click();
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`host-error-${field}`);
  }

  /** The host's connection badge: its state class and text, and whether it shows as a failure. */
  async badge(name: string): Promise<{ text: string; failed: boolean }> {
    const badge = this.state(name).locator('.badge').first();
    return { text: (await badge.innerText()).trim(), failed: (await badge.getAttribute('class'))?.split(' ').includes('failed') ?? false };
  }

  /**
   * Connects up to the first-use host key prompt and returns it with what is wrong with how it
   * shows: an error banner (it is a question, not a failure), or the fingerprint running past the
   * dialog's edge or into its buttons.
   */
  async hostKeyPrompt(name: string): Promise<{ fingerprint: string; problems: string[] }> {
    // A root host with a key connects at once, up to the prompt.
    const dialog = await this.startConnect(name);
    const prompt = dialog.getByTestId('unknown-key');
    await prompt.waitFor();
    const problems: string[] = [];
    if ((await dialog.locator('.banner.error').count()) > 0) problems.push('an error banner is shown');
    const [box, print, buttons] = await Promise.all([dialog.boundingBox(), dialog.getByTestId('presented-fingerprint').boundingBox(), prompt.locator('.actions').boundingBox()]);
    if (!box || !print || !buttons) return { fingerprint: '', problems: [...problems, 'the prompt is not laid out'] };
    if (print.x + print.width > box.x + box.width) problems.push(`the fingerprint runs ${Math.round(print.x + print.width - box.x - box.width)} px past the dialog`);
    if (print.y + print.height > buttons.y) problems.push('the fingerprint runs into the buttons');
    return { fingerprint: (await dialog.getByTestId('presented-fingerprint').innerText()).trim(), problems };
  }
}
