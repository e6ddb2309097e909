// Page object for the load clients of a run: the Run page's client picker (hosts and weights) and
// the session dashboard's clients table and Per client switch. Selectors live here.

import type { Locator, Page } from 'playwright-core';
import { until } from '../../support/until.ts';

export class RunClients {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  /** Picks these hosts as the load clients, in order, each with its weight ('' for its core count). */
  async pick(clients: ReadonlyArray<{ host: string; weight?: string }>): Promise<void> {
    // Back to one client first, then a row per further client.
    while ((await this.rows().count()) > 1) await this.page.getByTestId(`run-client-remove-${(await this.rows().count()) - 1}`).click();
    for (const [index, client] of clients.entries()) {
      if (index > 0) await this.page.getByTestId('run-client-add').click();
      await this.hostSelect(index).selectOption({ label: client.host });
    }
    if (clients.length > 1) for (const [index, client] of clients.entries()) await this.weight(index).fill(client.weight ?? '');
  }

  rows(): Locator {
    return this.page.getByTestId('run-client-row');
  }

  hostSelect(index: number): Locator {
    return this.page.getByTestId(index === 0 ? 'run-client' : `run-client-${index}`);
  }

  weight(index: number): Locator {
    return this.page.getByTestId(`run-client-weight-${index}`);
  }

  /** The picked hosts' names and weights as the form shows them. */
  async picked(): Promise<Array<{ host: string; weight: string | null }>> {
    const picked: Array<{ host: string; weight: string | null }> = [];
    // A page just opened shows "Choose…" until the hosts are loaded: read once the first list has hosts in it.
    await this.hostSelect(0).locator('option').nth(1).waitFor({ state: 'attached' });
    const count = await this.rows().count();
    for (let index = 0; index < count; index++) {
      const host = (await this.hostSelect(index).locator('option:checked').innerText()).trim();
      picked.push({ host, weight: count > 1 ? await this.weight(index).inputValue() : null });
    }
    return picked;
  }

  /** The weight field's hint once the host's core count (the default weight) is known, e.g. "2 (cores)". */
  weightHint(index: number): Promise<string> {
    return until(async () => {
      const hint = await this.weight(index).getAttribute('placeholder');
      return hint && /\d/.test(hint) ? hint : null;
    }, `the core count of client ${index + 1} as its weight's hint`, 10_000);
  }

  table(): Locator {
    return this.page.getByTestId('run-clients');
  }

  /** The clients table, a row per client: host, share, clock, status and problem as shown. */
  async tableRows(): Promise<Array<{ host: string; share: string; clock: string; status: string; problem: string }>> {
    const rows = this.page.getByTestId('run-clients-row');
    const read: Array<{ host: string; share: string; clock: string; status: string; problem: string }> = [];
    for (let index = 0; index < (await rows.count()); index++) {
      const row = rows.nth(index);
      read.push({
        host: (await row.getAttribute('data-client')) ?? '',
        share: await row.getByTestId('run-clients-share').innerText(),
        clock: await row.getByTestId('run-clients-clock').innerText(),
        status: await row.getByTestId('run-clients-status').innerText(),
        problem: await row.getByTestId('run-clients-problem').innerText(),
      });
    }
    return read;
  }

  /** Shows (or hides) each client's requests/s and p99 on the charts. */
  async showPerClient(on: boolean): Promise<void> {
    await this.page.getByTestId('charts-per-client').setChecked(on);
  }
}
