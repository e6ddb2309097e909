// Page object for the Templates page: tests speak in user actions, selectors live here.

import type { Locator, Page } from 'playwright-core';
import type { BenchlabApi } from '../../../app/contract.ts';
import { expectAttribute } from '../../support/browser.ts';
import { waitForLogLine } from './log-terminal.ts';
import { NavPage } from './nav-page.ts';

/** Its layoutProblems checks the page fits the window: it has no table of its own. */
export class TemplatesPage extends NavPage {
  constructor(page: Page) {
    super(page, 'templates');
  }

  /** The host "Deploy to" has chosen, by name. */
  /** The host Deploy goes to, once the page knows the hosts' roles (its default is final then). */
  async deployTarget(): Promise<string> {
    await expectAttribute(this.page.getByTestId('templates-host'), 'data-default-known', 'yes');
    return (await this.page.getByTestId('templates-host').locator('option:checked').innerText()).trim();
  }

  /** The reason a typed port is refused, shown beside the field. */
  portError(): Locator {
    return this.page.getByTestId('templates-port-error');
  }

  card(templateId: string): Locator {
    return this.page.getByTestId(`template-${templateId}`);
  }

  broken(): Locator {
    return this.page.getByTestId('template-broken');
  }

  async target(hostName: string, port: number): Promise<void> {
    await this.page.getByTestId('templates-host').selectOption({ label: hostName });
    await this.page.getByTestId('templates-port').fill(String(port));
  }

  async setKnob(templateId: string, knob: string, value: string): Promise<void> {
    await this.card(templateId).getByTestId(`knob-${knob}`).fill(value);
  }

  deployButton(templateId: string): Locator {
    return this.card(templateId).getByTestId('template-deploy');
  }

  async deploy(templateId: string, variant?: string): Promise<void> {
    if (variant) await this.card(templateId).getByTestId('template-variant').selectOption(variant);
    await this.deployButton(templateId).click();
  }

  deployment(hostName: string): Locator {
    return this.page.locator(`[data-testid="deployment"][data-host-name="${hostName}"]`);
  }

  async waitForState(hostName: string, state: string, timeout = 30_000): Promise<void> {
    try {
      await this.deployment(hostName).getByTestId('deployment-state').filter({ hasText: new RegExp(`^${state}$`) }).waitFor({ timeout });
    } catch (error) {
      const shown = await this.deployment(hostName).innerText({ timeout: 1000 }).catch(() => '(no deployment shown)');
      // A deploy refused before it began changes no card: what it said is beside its button.
      const refused = await this.page.getByTestId('template-deploy-refused').allInnerTexts();
      throw new Error(`${hostName} did not reach "${state}"; the page shows:\n${shown}${refused.map((text) => `\nrefused beside a Deploy button: ${text}`).join('')}`, { cause: error });
    }
  }

  /** Waits until a line of the log terminal matches (see log-terminal.ts). */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<void> {
    return waitForLogLine(this.page, pattern, timeoutMs);
  }

  async stop(hostName: string): Promise<void> {
    await this.deployment(hostName).getByTestId('deployment-stop').click();
  }

  /** The question Stop asks on a deployment card while a run loads its server. */
  stopQuestion(hostName: string): Locator {
    return this.deployment(hostName).getByTestId('deployment-stop-confirm');
  }

  /** Answers it: Stop it (true) or Keep it running (false). */
  async answerStop(hostName: string, stop: boolean): Promise<void> {
    await this.stopQuestion(hostName).getByTestId(stop ? 'deployment-stop-yes' : 'deployment-stop-keep').click();
    await this.stopQuestion(hostName).waitFor({ state: 'detached' });
  }

  /** The question a deploy asks, on its template's card, before it would replace a running server. */
  replaceQuestion(templateId: string): Locator {
    return this.card(templateId).getByTestId('template-replace');
  }

  /** Answers the question: Replace it (true) or Keep it (false). */
  async answerReplace(templateId: string, replace: boolean): Promise<void> {
    await this.replaceQuestion(templateId).getByTestId(replace ? 'template-replace-confirm' : 'template-replace-cancel').click();
    await this.replaceQuestion(templateId).waitFor({ state: 'detached' });
  }

  /** The deployment card's heading: "host: template (variant, port N)". */
  async deploymentTitle(hostName: string): Promise<string> {
    return (await this.deployment(hostName).locator('h2').innerText()).trim();
  }
}

/**
 * Stops whatever server a test deployed on `hostName`, through the app's own API: an `after` hook's
 * clean-up, so a test that failed midway leaves no server running for the next run. Never throws.
 */
export async function stopDeployedServer(page: Page | undefined, hostName: string): Promise<void> {
  await page
    ?.evaluate(async (name) => {
      const api = (globalThis as unknown as { benchlab: BenchlabApi }).benchlab;
      const server = (await api.hosts.list()).find((host) => host.name === name);
      if (server) await api.templates.stop({ hostId: server.id });
    }, hostName)
    .catch(() => undefined);
}

/**
 * A run of 120 s with one connection from lab-client loading lab-server's Node sync server at
 * `target:port`, started as the Run page starts one; its session id.
 */
export function startLabLoad(page: Page, name: string, target: string, port: number): Promise<number> {
  return page.evaluate(
    async ({ name, target, port }) => {
      const api = (globalThis as unknown as { benchlab: BenchlabApi }).benchlab;
      const hosts = await api.hosts.list();
      const id = (hostName: string) => hosts.find((host) => host.name === hostName)!.id;
      const run = await api.runs.start({
        name,
        clientHostId: id('lab-client'),
        serverHostId: id('lab-server'),
        profile: { target: `http://${target}:${port}`, request: { path: '/hello' }, load: { model: 'closed', connections: 1, durationS: 120 } },
        deployment: { templateId: 'node', variant: 'sync', knobs: {} },
      });
      return run.sessionId;
    },
    { name, target, port },
  );
}
