// Page object for the wizard: tests speak in steps and choices, selectors live here.

import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { expectAttribute, expectText } from '../../support/browser.ts';
import { NavPage } from './nav-page.ts';
import { asksBeforeConnecting, HostsPage, type HostFormValues } from './hosts-page.ts';

export type WizardRole = 'client' | 'server';

export class WizardPage extends NavPage {
  constructor(page: Page) {
    super(page, 'wizard');
  }

  override async open(): Promise<void> {
    await this.page.getByTestId('nav-wizard').click();
    // The page shows "Loading…" until its saved draft is back: only then does it say its step.
    await this.page.locator('[data-testid="page-wizard"][data-step]').waitFor();
  }

  async step(): Promise<string | null> {
    return this.page.getByTestId('page-wizard').getAttribute('data-step');
  }

  async waitForStep(step: string): Promise<void> {
    await expectAttribute(this.page.getByTestId('page-wizard'), 'data-step', step);
  }

  /** Waits until the back end holds the draft's latest change (the wizard saves a moment after each). */
  async waitForSaved(): Promise<void> {
    await expectAttribute(this.page.getByTestId('page-wizard'), 'data-draft', 'saved');
  }

  async next(): Promise<void> {
    await this.page.getByTestId('wizard-next').click();
  }

  error(field: string): Locator {
    return this.page.getByTestId(`error-${field}`);
  }

  /** Adds a host for a role from the wizard, then trusts its key on first connection. */
  async addHost(role: WizardRole, values: HostFormValues, fingerprint: string): Promise<void> {
    await this.page.getByTestId(`wizard-${role}-add`).click();
    await new HostsPage(this.page).fill(values);
    await this.page.getByTestId('host-save').click();
    const dialog = this.page.getByTestId('connect-dialog');
    if (asksBeforeConnecting(values)) await dialog.getByTestId('connect-submit').click();
    await expectText(dialog.getByTestId('presented-fingerprint'), fingerprint);
    await dialog.getByTestId('trust-key').click();
    await expectText(this.hostState(role), 'connected');
  }

  hostState(role: WizardRole): Locator {
    return this.page.getByTestId(`wizard-${role}-state`);
  }

  async choosePreset(role: WizardRole, presetId: string): Promise<void> {
    await this.page.getByTestId(`wizard-${role}-preset`).selectOption(presetId);
  }

  async chooseTarget(templateId: string, variant: string): Promise<void> {
    await this.page.getByTestId(`wizard-target-${templateId}-${variant}`).check();
  }

  field(name: string): Locator {
    return this.page.getByTestId(`run-${name}`);
  }

  stages(): Locator {
    return this.page.getByTestId('wizard-stage');
  }

  /** A review stage's estimate in seconds. */
  async stageEstimate(id: string): Promise<number> {
    return Number(await this.page.locator(`[data-testid="wizard-stage"][data-stage="${id}"]`).getAttribute('data-estimate'));
  }

  /** The name the review proposes while none is typed. */
  async proposedName(): Promise<string | null> {
    return this.page.getByTestId('wizard-name').getAttribute('placeholder');
  }

  /** Hosts step: a study chosen before anything else (its templates, presets and load follow). */
  async chooseStudyFirst(studyId: string): Promise<void> {
    await this.page.getByTestId('wizard-study-first-choice').selectOption(studyId);
  }

  /** Templates step: the server already running on the server host, when there is one. */
  occupant(): Locator {
    return this.page.getByTestId('wizard-occupant');
  }

  /** Stops that server: Stop it…, then the confirmation. */
  async stopOccupant(): Promise<void> {
    await this.occupant().getByTestId('wizard-occupant-stop').click();
    await this.occupant().getByTestId('wizard-occupant-stop-confirm').click();
  }

  /** Templates step: whether a variant is checked, and whether the study chosen proposed it. */
  async target(templateId: string, variant: string): Promise<{ checked: boolean; proposed: boolean }> {
    return {
      checked: await this.page.getByTestId(`wizard-target-${templateId}-${variant}`).isChecked(),
      proposed: (await this.page.getByTestId(`wizard-target-proposed-${templateId}-${variant}`).count()) > 0,
    };
  }

  planStage(id: string): Locator {
    return this.page.locator(`[data-testid="plan-stage"][data-stage="${id}"]`);
  }

  /** Save plan file…: the name the browser was given and the file's text. */
  async savePlanFile(): Promise<{ fileName: string; text: string }> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId('wizard-save-plan-file').click()]);
    const path = await download.path();
    return { fileName: download.suggestedFilename(), text: await readFile(path, 'utf8') };
  }

  /** Open plan file… with a file of this name and text (the picker's input takes it directly). */
  async openPlanFile(fileName: string, text: string): Promise<void> {
    await this.page.getByTestId('wizard-plan-file-input').setInputFiles({ name: fileName, mimeType: 'application/yaml', buffer: Buffer.from(text) });
  }

  /** What Save or Open said: its tone (`error`, `info`) once it shows, and its lines. */
  async planFileMessage(tone: 'error' | 'info'): Promise<string[]> {
    const message = this.page.getByTestId('wizard-plan-file-message');
    await expectAttribute(message, 'data-tone', tone);
    return message.getByTestId('wizard-plan-file-line').allInnerTexts();
  }

  /** A stage's warning (a preset some of whose keys did not take effect), or null when it has none. */
  async stageWarning(id: string): Promise<string | null> {
    const stage = this.planStage(id);
    if ((await stage.getAttribute('data-warning')) !== 'true') return null;
    return (await stage.getByTestId('plan-stage-warning').innerText()).trim();
  }

  /** The icon a stage's row shows (✓ done, ⚠ done with a warning, ✗ failed …). */
  async stageIcon(id: string): Promise<string> {
    return (await this.planStage(id).locator('.stage-icon').innerText()).trim();
  }

  async waitForPlan(status: string, timeoutMs: number): Promise<void> {
    await expectAttribute(this.page.getByTestId('wizard-run'), 'data-status', status, { timeout: timeoutMs });
  }
}
