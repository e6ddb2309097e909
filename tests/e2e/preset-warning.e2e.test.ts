// The wizard's run step shows a preset some of whose keys did not take effect as a warning — ⚠ and
// the value in effect beside what was asked — never as a green ✓, in web mode and real Chromium.
// The finished plan is seeded into the store as the plan runner keeps it (the lab test
// tests/lab/preset-effect.test.ts makes such a plan on real hosts).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PlanState } from '../../app/plans/plan.ts';
import { DraftsRepository } from '../../main/services/drafts/drafts-repository.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { WizardPage } from './pages/wizard-page.ts';

const WARNING = '1 of 2 keys did not take effect: root soft+hard nofile: 20000 / 20000 in effect, asked 100000 (hard limit 20000 caps it: it cannot be raised here (new logins still get 20000))';

function finishedPlan(): PlanState {
  const at = '2026-11-27T12:00:00.000Z';
  const stage = (id: string, kind: 'preset' | 'deploy' | 'load' | 'stop' | 'revert', label: string, detail: string, warning: string | null = null) => ({
    id,
    kind,
    label,
    status: 'done' as const,
    detail,
    warning,
    target: kind === 'preset' || kind === 'revert' ? null : 0,
    round: null,
    sessionId: null,
    estimateS: 5,
    startedAt: at,
    endedAt: at,
  });
  return PlanState.parse({
    id: 1,
    name: 'Took effect',
    status: 'completed',
    stages: [
      stage('preset-client', 'preset', 'Apply preset "Load client" on lab-client', 'applied (3 changes)'),
      stage('preset-server', 'preset', 'Apply preset "Above the cap" on lab-server', 'applied (2 changes); reconnected, so the load and the server get the new limits', WARNING),
      stage('deploy-0', 'deploy', 'Deploy Node.js on lab-server', 'http://10.231.30.3:18631'),
      stage('revert-server', 'revert', 'Revert lab-server to its settings before the preset', 'reverted'),
    ],
    sessionIds: [],
    message: null,
    startedAt: at,
    endedAt: at,
    estimateS: 60,
  });
}

let opened: OpenWebApp;
let wizard: WizardPage;

before(async () => {
  opened = await openWebApp({ seed: (db) => new DraftsRepository(db).save('last-plan', finishedPlan()) });
  wizard = new WizardPage(opened.page);
  await wizard.open();
  await opened.page.getByTestId('wizard-step-run').click();
  await wizard.waitForPlan('completed', 10_000);
});

after(async () => {
  await opened?.close();
});

test('a preset whose keys did not all take effect is ⚠ with the value in effect and what was asked, never ✓', async () => {
  assert.equal(await wizard.stageIcon('preset-server'), '⚠');
  assert.equal(await wizard.stageWarning('preset-server'), WARNING);
  // Every key took on the client: a plain done.
  assert.equal(await wizard.stageIcon('preset-client'), '✓');
  assert.equal(await wizard.stageWarning('preset-client'), null);
  assert.deepEqual(await opened.cspViolations(), []);
});
