// The whole product path in web mode and real Chromium against the lab (its own `wizard` instance),
// from an empty data dir: the wizard (each step refusing Next until it is valid, a reload keeping
// its state), a plan that applies a preset and runs two variants of the Node template as two
// sessions, their comparison, a replay of one, a PDF whose text holds both sessions' names
// and figures, and the plan saved as a plan file and opened back.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { describeProblems, parsePlanFile } from '../../app/plans/plan-file.ts';
import { expectAttribute } from '../support/browser.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { learnedEstimates } from '../../app/plans/plan-estimate.ts';
import { EventBus } from '../../main/services/event-bus.ts';
import { HostsRepository } from '../../main/services/hosts/hosts-repository.ts';
import { EstimateHistory } from '../../main/services/plans/estimate-history.ts';
import { EstimatesRepository } from '../../main/services/plans/estimates-repository.ts';
import { openDatabase } from '../../main/services/store/database.ts';
import { WEB_MODE_FILE } from '../../main/web/web-mode-memory.ts';
import { ComparePage, SessionsLibrary } from './pages/compare-pages.ts';
import { TemplatesPage } from './pages/templates-page.ts';
import { WizardPage } from './pages/wizard-page.ts';

const skip = labSkipReason();
const PORT = '18461';
const SESSION_NAMES = ['Lab wizard — Node.js (node:http) · async', 'Lab wizard — Node.js (node:http) · sync'];

describe('wizard → two runs → comparison → replay → PDF on the lab', { skip: skip ?? false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let wizard: WizardPage;
  let targets: Awaited<ReturnType<typeof labTargets>>;

  before(async () => {
    targets = await labTargets('wizard');
    opened = await openWebApp({ timeoutMs: 20_000 });
    page = opened.page;
    // Web mode's own memory (its port) is there from the start; nothing else is.
    assert.deepEqual(readdirSync(opened.app.dataDir).filter((file) => !file.startsWith('benchlab.db') && file !== WEB_MODE_FILE), [], 'the data dir starts empty');
    wizard = new WizardPage(page);
    await wizard.open();
  });

  after(async () => {
    await opened?.close();
  });

  test('hosts: Next is refused until both hosts are chosen and connected; hosts added and trusted from the wizard', async () => {
    assert.equal(await wizard.step(), 'hosts');
    await wizard.next();
    assert.match(await wizard.error('clientHostId').innerText(), /choose the host that generates the load/);
    assert.equal(await wizard.step(), 'hosts');
    const host = (role: 'client' | 'server') => ({ name: `wiz-${role}`, address: targets[role].address, user: 'root', auth: 'key' as const, keyPath: targets.keyPath });
    await wizard.addHost('client', host('client'), targets.client.pinnedFingerprint!);
    await wizard.addHost('server', host('server'), targets.server.pinnedFingerprint!);
    await page.getByTestId('wizard-reach').click();
    assert.match(await page.getByTestId('wizard-reach-result').innerText(), /wiz-client reaches wiz-server \(round trip [\d.]+ ms\)/);
    await wizard.next();
    await wizard.waitForStep('presets');
  });

  test('presets: the plan of the preset on the server is shown, and a reload keeps the wizard where it was', async () => {
    await wizard.choosePreset('server', 'distribution-defaults');
    await page.getByTestId('wizard-server-plan').getByTestId('plan-table').waitFor();
    assert.ok((await page.getByTestId('wizard-server-plan').getByTestId('plan-row').count()) >= 5, 'one row per key of the preset');
    assert.equal(await page.getByTestId('wizard-revert').isChecked(), true);
    // The draft is saved a moment after each change: the page says when the back end holds it.
    await wizard.waitForSaved();
    await page.reload();
    await wizard.waitForStep('presets');
    assert.equal(await page.getByTestId('wizard-server-preset').inputValue(), 'distribution-defaults');
    assert.equal(await page.getByTestId('wizard-client-preset').inputValue(), '');
    await page.getByTestId('wizard-server-plan').getByTestId('plan-table').waitFor();
    await wizard.next();
    await wizard.waitForStep('templates');
  });

  test('templates: at least one is needed; two variants of Node chosen on a port of our own', async () => {
    await wizard.next();
    assert.match(await wizard.error('targets').innerText(), /choose at least one template/);
    await page.getByTestId('wizard-port').fill('99999');
    await wizard.chooseTarget('node', 'async');
    await wizard.chooseTarget('node', 'sync');
    await wizard.next();
    assert.match(await wizard.error('port').innerText(), /between 1 and 65535/);
    await page.getByTestId('wizard-port').fill(PORT);
    await wizard.next();
    await wizard.waitForStep('load');
  });

  test('load profile: a study fills the form; a bad value stops Next; a short custom profile goes on', async () => {
    await page.getByTestId('study-ab-fixed-count').click();
    assert.equal(await wizard.field('requests').inputValue(), '10000');
    assert.equal(await wizard.field('connections').inputValue(), '100');
    await page.getByTestId('study-wrk-connections').click();
    assert.equal(await wizard.field('sweep').inputValue(), '10, 100, 1000, 10000');
    await page.getByTestId('study-custom').click();
    await wizard.field('sweep').fill('');
    await wizard.field('warmupS').fill('0');
    await wizard.field('connections').fill('0');
    await wizard.next();
    assert.match(await wizard.error('connections').innerText(), /at least 1/);
    await wizard.field('connections').fill('4');
    await wizard.field('durationS').fill('3');
    await wizard.next();
    await wizard.waitForStep('review');
  });

  test('review: every stage in order with an estimate before a name is typed; a name is proposed', async () => {
    assert.equal(await page.getByTestId('wizard-name').inputValue(), '');
    assert.equal(await wizard.proposedName(), 'Node.js (node:http) · async vs Node.js (node:http) · sync, GET /hello');
    await wizard.stages().nth(7).waitFor();
    assert.equal(await page.getByTestId('wizard-estimate').innerText(), '1 min 26 s');
    await page.getByTestId('wizard-name').fill('Lab wizard');
    await page.getByTestId('wizard-tags').fill('e2e');
    assert.deepEqual(
      await wizard.stages().evaluateAll((items) => items.map((item) => item.getAttribute('data-stage'))),
      ['preset-server', 'deploy-0', 'load-0', 'stop-0', 'deploy-1', 'load-1', 'stop-1', 'revert-server'],
    );
    assert.match(await wizard.stages().nth(2).innerText(), /Load Node\.js \(node:http\) · async from wiz-client: GET \/hello, c=4, 3 s/);
    // 5 s preset + 2 × (30 s deploy + 3 s load + 5 s stop) + 5 s revert.
    assert.equal(await page.getByTestId('wizard-estimate').innerText(), '1 min 26 s');
  });

  test('run: the plan applies the preset, runs both variants as two sessions and reverts', async () => {
    await page.getByTestId('wizard-start').click();
    await wizard.waitForStep('run');
    await wizard.waitForPlan('completed', 180_000);
    const statuses = await page.getByTestId('plan-stage').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-stage')}:${item.getAttribute('data-status')}`));
    assert.deepEqual(statuses, ['preset-server', 'deploy-0', 'load-0', 'stop-0', 'deploy-1', 'load-1', 'stop-1', 'revert-server'].map((id) => `${id}:done`));
    assert.match(await wizard.planStage('load-0').innerText(), /completed — \d+ req\/s/);
    assert.equal(await page.getByTestId('plan-compare').innerText(), 'Compare its 2 sessions');
    // A reload on the run step shows the same finished plan.
    await page.reload();
    await wizard.waitForPlan('completed', 10_000);
  });

  test('comparison of the two sessions, a replay of one, and a PDF with both names and figures', async () => {
    await page.getByTestId('plan-compare').click();
    await page.getByTestId('comparison').waitFor();
    const compare = new ComparePage(page);
    const rps = await compare.column('c=4, 3 s', 'rps');
    assert.equal(rps.length, 2, 'one row per session');
    assert.equal(rps.filter((cell) => cell.best).length, 1, 'the better one is marked');
    const names = await page.getByTestId('compare-step').first().getByTestId('compare-row').evaluateAll((rows) => rows.map((row) => row.querySelector('td')?.textContent ?? ''));
    assert.deepEqual(names, SESSION_NAMES);

    await page.getByTestId('compare-title').fill('Node async vs sync on the lab');
    await page.getByTestId('compare-export').click();
    const file = await page.getByTestId('compare-pdf-file').innerText({ timeout: 60_000 });
    assert.ok(existsSync(file), 'the PDF is on disk');
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const expected of ['Node async vs sync on the lab', ...SESSION_NAMES, rps[0]!.value, rps[1]!.value]) {
      assert.ok(text.includes(expected), `the PDF holds "${expected}"`);
    }
    execFileSync('pdftoppm', ['-png', '-r', '40', '-f', '1', '-l', '1', file, `${file}.page`]);
    assert.ok(readdirSync(opened.app.dataDir, { recursive: true }).some((entry) => String(entry).endsWith('.page-1.png')), 'the first page renders');

    const library = new SessionsLibrary(page);
    await library.open();
    await library.row(SESSION_NAMES[1]!).getByTestId('session-replay').click();
    const replay = page.getByTestId('replay');
    await page.getByTestId('replay-speed-20').click();
    // The duration is 0 until the stored seconds are loaded: wait for them, not for a moment.
    const duration = Number(await expectAttribute(replay, 'data-duration', { atLeast: 3 }));
    await expectAttribute(replay, 'data-position', String(duration), { timeout: 15_000 });
    await expectAttribute(page.getByTestId('chart-rps'), 'data-points', { atLeast: 3 });
  });

  test('a duplicated session opens in the wizard with its hosts, its profile and the template of its original', async () => {
    await page.getByTestId('replay-close').click();
    const library = new SessionsLibrary(page);
    await library.menuAction(SESSION_NAMES[0]!, 'session-duplicate');
    await library.menuAction(`${SESSION_NAMES[0]!} (copy)`, 'session-wizard');
    await wizard.waitForStep('hosts');
    assert.equal(await page.getByTestId('wizard-client-host').locator('option:checked').innerText(), `wiz-client (root@${targets.client.address})`);
    assert.equal(await page.getByTestId('wizard-server-host').locator('option:checked').innerText(), `wiz-server (root@${targets.server.address})`);
    await page.getByTestId('wizard-step-templates').click();
    assert.equal(await page.getByTestId('wizard-target-node-async').isChecked(), true);
    assert.equal(await page.getByTestId('wizard-target-node-sync').isChecked(), false);
    await page.getByTestId('wizard-step-load').click();
    assert.equal(await wizard.field('connections').inputValue(), '4');
    assert.equal(await wizard.field('durationS').inputValue(), '3');
    await page.getByTestId('wizard-step-review').click();
    assert.equal(await page.getByTestId('wizard-name').inputValue(), `${SESSION_NAMES[0]!} (copy)`);
  });

  test('a plan file: Save downloads the plan, a bad file is refused line by line and changes nothing, the saved one opens back', async () => {
    const saved = await wizard.savePlanFile();
    assert.equal(saved.fileName, 'plan.yaml');
    const parsed = parsePlanFile(saved.text);
    assert.ok(parsed.ok, parsed.ok ? '' : describeProblems('plan.yaml', parsed.problems));
    assert.equal(parsed.plan.name, `${SESSION_NAMES[0]!} (copy)`);
    assert.deepEqual(parsed.plan.hosts, { client: 'wiz-client', server: 'wiz-server' });
    assert.deepEqual(parsed.plan.presets, { client: null, server: 'distribution-defaults' });
    assert.deepEqual(parsed.plan.templates, [{ template: 'node', variant: 'async', knobs: {}, port: Number(PORT) }]);
    assert.equal(parsed.plan.profile?.load.connections, 4);

    await page.getByTestId('wizard-name').fill('Changed since the save');
    const bad = ['version: 1', 'name: Bad', 'templates: [node]', 'profile:', '  request: { path: hello }', '  load: { model: closed, connections: 4, durationS: 3 }', 'colour: blue', ''].join('\n');
    await wizard.openPlanFile('bad.yaml', bad);
    assert.deepEqual(await wizard.planFileMessage('error'), [
      'bad.yaml:3:13 templates[0].variant: is required',
      'bad.yaml:5:20 profile.request.path: must start with "/" (for example /hello)',
      'bad.yaml:7:1 colour: is not a field of a plan file (see docs/plan-files.md)',
    ]);
    assert.equal(await wizard.step(), 'review');
    assert.equal(await page.getByTestId('wizard-name').inputValue(), 'Changed since the save');

    await wizard.openPlanFile(saved.fileName, saved.text);
    assert.deepEqual(await wizard.planFileMessage('info'), []);
    await wizard.waitForStep('hosts');
    assert.equal(await page.getByTestId('wizard-server-host').locator('option:checked').innerText(), `wiz-server (root@${targets.server.address})`);
    await page.getByTestId('wizard-step-review').click();
    assert.equal(await page.getByTestId('wizard-name').inputValue(), `${SESSION_NAMES[0]!} (copy)`);
    await wizard.waitForSaved();
    assert.equal((await wizard.savePlanFile()).text, saved.text, 'the opened plan saves as the same file');
  });
  test('the estimates learn from the deploys and sessions just measured', async () => {
    await page.getByTestId('wizard-step-review').click();
    await wizard.stages().first().waitFor();
    const { db } = openDatabase(opened.app.dataDir);
    try {
      const serverId = new HostsRepository(db).list().find((host) => host.name === 'wiz-server')!.id;
      const history = new EstimateHistory({ bus: new EventBus(), repository: new EstimatesRepository(db) }).history();
      assert.equal(history.deploys.filter((deploy) => deploy.templateId === 'node' && deploy.hostId === serverId).length, 2, "the plan's two deploys are stored");
      assert.equal(history.sessions.length, 2, "the plan's two sessions are read");
      const learned = learnedEstimates(history);
      const measured = history.deploys.filter((deploy) => deploy.variant === 'async').map((deploy) => Math.ceil(deploy.seconds));
      assert.deepEqual([await wizard.stageEstimate('deploy-0')], measured, 'the one async deploy measured, not the guess');
      assert.equal(await wizard.stageEstimate('deploy-0'), learned.deployS(serverId, 'node', 'async'));
      assert.equal(await wizard.stageEstimate('load-0'), 3 + learned.loadOverheadS);
    } finally {
      db.close();
    }
  });

  test('a server the Templates page started on the server host is said on the Templates step and stopped after a confirmation', async () => {
    const templates = new TemplatesPage(page);
    await templates.open();
    await templates.target('wiz-server', Number(PORT) + 1);
    await templates.deploy('node', 'async');
    await templates.waitForState('wiz-server', 'ready', 120_000);
    await wizard.open();
    await page.getByTestId('wizard-step-templates').click();
    await wizard.occupant().waitFor();
    assert.equal(await wizard.occupant().getAttribute('data-started-by'), 'this');
    assert.match(await wizard.occupant().innerText(), new RegExp(`wiz-server already runs Node\\.js \\(node:http\\) \\(async\\) on port ${Number(PORT) + 1}, started from this Benchlab`));
    await wizard.next();
    assert.equal(await wizard.step(), 'templates', 'Next waits while the server runs');
    await wizard.occupant().getByTestId('wizard-occupant-stop').click();
    await wizard.occupant().getByTestId('wizard-occupant-stop-cancel').click();
    assert.equal(await wizard.occupant().count(), 1, 'Keep it keeps it');
    await wizard.stopOccupant();
    await wizard.occupant().waitFor({ state: 'detached', timeout: 30_000 });
    await wizard.next();
    await wizard.waitForStep('load');
  });

  test('a study chosen first proposes its templates, marked on the Templates step, and its load', async () => {
    await page.getByTestId('wizard-step-hosts').click();
    await wizard.chooseStudyFirst('loadtest-sleep');
    await wizard.waitForSaved();
    await page.getByTestId('wizard-step-templates').click();
    await page.getByTestId('wizard-templates-study').waitFor();
    for (const [templateId, variant] of [['spring-boot', 'sync'], ['spring-boot', 'async'], ['tomcat', 'sync'], ['tomcat', 'async']] as const) {
      assert.deepEqual(await wizard.target(templateId, variant), { checked: true, proposed: true }, `${templateId} ${variant}`);
    }
    assert.deepEqual(await wizard.target('node', 'async'), { checked: false, proposed: false });
    await page.getByTestId('wizard-step-load').click();
    await page.getByTestId('study-chosen').waitFor();
    assert.equal(await wizard.field('model').inputValue(), 'open');
  });

  test('across the whole path, reloads included, the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});
