// The layering of docs/architecture.md is enforced by lint: these cases prove the rules fire (and stay quiet),
// the import rules and the one against cycles between capability folders (scripts/lint/capability-cycles.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function restrictedImportErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const forbidden: Array<[string, string]> = [
  ['app/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
  ['app/bad.ts', "import fs from 'fs';\nexport const x = fs;\n"],
  ['app/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
  ['app/bad.ts', "import { useState } from 'react';\nexport const x = useState;\n"],
  ['app/bad.ts', "import { createServices } from '../main/services/services.ts';\nexport const x = createServices;\n"],
  ['app/bad.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n"],
  ['renderer/src/bad.ts', "import { createServices } from '../../main/services/services.ts';\nexport const x = createServices;\n"],
  ['renderer/src/bad.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n"],
  ['renderer/src/bad.ts', "import { spawn } from 'node:child_process';\nexport const x = spawn;\n"],
  ['main/services/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
  // Services are called by the handlers and the front doors, never the other way round.
  ['main/services/hosts/bad.ts', "import { createHandlers } from '../../api/handlers.ts';\nexport const x = createHandlers;\n"],
  ['main/services/bad.ts', "import type { Dispatcher } from '../api/dispatch.ts';\nexport type X = Dispatcher;\n"],
  ['main/services/runs/bad.ts', "import { startWebServer } from '../../web/server.ts';\nexport const x = startWebServer;\n"],
  ['main/services/bad.ts', "import { preload } from '../electron/preload.ts';\nexport const x = preload;\n"],
  ['main/services/templates/bad.ts', "import { main } from '../../cli/benchlab.ts';\nexport const x = main;\n"],
  ['main/services/bad.ts', "import { createHandlers } from '../../main/api/handlers.ts';\nexport const x = createHandlers;\n"],
  ['agent/bad.ts', "import { createServices } from '../main/services/services.ts';\nexport const x = createServices;\n"],
  ['agent/bad.ts', "import { Client } from 'ssh2';\nexport const x = Client;\n"],
  // The agent speaks HTTP with its own client: no load library may creep back into the bundle.
  ['agent/bad.ts', "import Client from 'autocannon/lib/httpClient.js';\nexport const x = Client;\n"],
  // One renderer feature never imports another feature's page: pages are routed to by App.tsx only.
  ['renderer/src/features/sessions/bad.tsx', "import { RunPage } from '../runs/RunPage.tsx';\nexport const x = RunPage;\n"],
  ['renderer/src/features/plans/bad.ts', "import { CHARTS } from '../runs/RunPage';\nexport const x = CHARTS;\n"],
  ['renderer/src/common/bad.tsx', "import { HostsPage } from '../features/hosts/HostsPage.tsx';\nexport const x = HostsPage;\n"],
  ['renderer/src/main.tsx', "import { WizardPage } from './features/plans/WizardPage.tsx';\nexport const x = WizardPage;\n"],
  // The CLI reaches the back end through the Services facade (services.ts) or the contract, nothing else of main/services.
  ['main/cli/commands/bad.ts', "import { RunsRepository } from '../../services/runs/runs-repository.ts';\nexport const x = RunsRepository;\n"],
  ['main/cli/bad.ts', "import type { HostService } from '../services/hosts/host-service.ts';\nexport type X = HostService;\n"],
  ['main/cli/bad.ts', "import { defaultDataDir } from '../services/data-dir.ts';\nexport const x = defaultDataDir;\n"],
  ['main/cli/commands/bad.ts', "import { createRunHandlers } from '../../api/runs-handlers.ts';\nexport const x = createRunHandlers;\n"],
  ['main/cli/bad.ts', "import { app } from 'electron';\nexport const x = app;\n"],
];

for (const [file, code] of forbidden) {
  test(`lint refuses in ${file}: ${code.split('\n')[0]}`, async () => {
    const errors = await restrictedImportErrors(file, code);
    assert.ok(errors.length > 0, `expected a no-restricted-imports error for ${file}`);
  });
}

const allowed: Array<[string, string]> = [
  ['app/ok.ts', "import { z } from 'zod';\nimport { ApiError } from './errors.ts';\nexport const x = [z, ApiError];\n"],
  ['renderer/src/ok.ts', "import { requests } from '../../app/contract.ts';\nexport const x = requests;\n"],
  ['main/electron/ok.ts', "import { app } from 'electron';\nexport const x = app;\n"],
  ['main/services/ok.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
  [
    'main/services/hosts/ok.ts',
    "import { ApiError } from '../../../app/common/errors.ts';\nimport { Logger } from '../logger.ts';\nimport { HostsRepository } from './hosts-repository.ts';\nexport const x = [ApiError, Logger, HostsRepository];\n",
  ],
  ['main/services/ok.ts', "import { ReadableStream } from 'node:stream/web';\nexport const x = ReadableStream;\n"],
  // A service's test may drive it through the dispatcher, as a front door does.
  ['main/services/runs/ok.test.ts', "import { createDispatcher } from '../../api/dispatch.ts';\nexport const x = createDispatcher;\n"],
  ['main/api/ok.ts', "import type { Services } from '../services/services.ts';\nexport type X = Services;\n"],
  ['main/web/ok.ts', "import { createServices } from '../services/services.ts';\nexport const x = createServices;\n"],
  ['main/cli/commands/ok.ts', "import { createServices, loadStudies, type Services } from '../../services/services.ts';\nexport const x = [createServices, loadStudies];\nexport type X = Services;\n"],
  ['main/cli/commands/ok.ts', "import { createDispatcher } from '../../api/dispatch.ts';\nimport { createHandlers } from '../../api/handlers.ts';\nexport const x = [createDispatcher, createHandlers];\n"],
  ['main/cli/commands/ok.test.ts', "import { openDatabase } from '../../services/store/database.ts';\nexport const x = openDatabase;\n"],
  [
    'agent/ok.ts',
    "import * as hdr from 'hdr-histogram-js';\nimport { readFileSync } from 'node:fs';\nimport { encodeLine } from '../app/runs/agent-protocol.ts';\nexport const x = [hdr, readFileSync, encodeLine];\n",
  ],
  // A page from its own feature folder, every page from App.tsx, and components across features.
  ['renderer/src/features/runs/ok.tsx', "import { RunPage } from './RunPage.tsx';\nexport const x = RunPage;\n"],
  ['renderer/src/App.tsx', "import { RunPage } from './features/runs/RunPage.tsx';\nimport { HostsPage } from './features/hosts/HostsPage.tsx';\nexport const x = [RunPage, HostsPage];\n"],
  ['renderer/src/features/sessions/ok.tsx', "import { SessionDashboard } from '../runs/SessionDashboard.tsx';\nimport { Page } from '../../common/Page.tsx';\nexport const x = [SessionDashboard, Page];\n"],
];

for (const [file, code] of allowed) {
  test(`lint allows in ${file}: ${code.split('\n')[0]}`, async () => {
    assert.deepEqual(await restrictedImportErrors(file, code), []);
  });
}

// Capability folders import one another one way only. Each case names the import already in the tree
// that the new one would close a cycle with.
async function cycleErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'benchlab/no-capability-cycles').map((m) => m.message);
}

const cycles: Array<[string, string, RegExp]> = [
  // app/plans imports app/runs (plan.ts: the load profile).
  ['app/runs/bad.ts', "import { PlanSpec } from '../plans/plan.ts';\nexport const x = PlanSpec;\n", /runs → plans here, and plans → runs \(app\/plans\//],
  // A type alone is an import too; app/sessions imports app/runs.
  ['app/runs/bad.ts', "import type { Session } from '../sessions/sessions.ts';\nexport type X = Session;\n", /sessions → runs/],
  // A longer way back: the Templates page reads the wizard's draft (templates → plans), the wizard uses the Run page's parts (plans → runs).
  ['renderer/src/features/runs/bad.ts', "import { useServerRoles } from '../templates/use-server-host.ts';\nexport const x = useServerRoles;\n", /runs → templates here, and templates → plans \(.*\), plans → runs \(/],
  // common/ is a folder like the others: it never reaches back into a capability that uses it.
  ['app/common/bad.ts', "import { LoadProfile } from '../runs/load-profile.ts';\nexport const x = LoadProfile;\n", /common → runs/],
  ['app/runs/bad.ts', "export { PlanSpec } from '../plans/plan.ts';\n", /runs → plans/],
  // main/services: runs imports hosts (the connections).
  ['main/services/hosts/bad.ts', "import type { RunService } from '../runs/run-service.ts';\nexport type X = RunService;\n", /hosts → runs/],
  // The renderer: the wizard (plans) uses the Run page's form parts (runs), so runs never imports plans.
  ['renderer/src/features/runs/bad.ts', "import { useWizardDraft } from '../plans/use-wizard-draft.ts';\nexport const x = useWizardDraft;\n", /runs → plans/],
  ['renderer/src/features/runs/bad.ts', "export const load = () => import('../plans/wizard-draft.ts');\n", /runs → plans/],
  // The file's text counts, not its copy on disk: runs-contract.ts once imported sessions.ts.
  ['app/runs/runs-contract.ts', "import { Session } from '../sessions/sessions.ts';\nexport const x = Session;\n", /runs → sessions/],
];

for (const [file, code, message] of cycles) {
  test(`lint refuses a capability cycle in ${file}: ${code.split('\n')[0]}`, async () => {
    const errors = await cycleErrors(file, code);
    assert.equal(errors.length, 1, `expected one capability-cycle error for ${file}, got ${JSON.stringify(errors)}`);
    assert.match(errors[0]!, message);
  });
}

const oneWay: Array<[string, string]> = [
  ['app/plans/ok.ts', "import { LoadProfile } from '../runs/load-profile.ts';\nimport { Session } from '../sessions/sessions.ts';\nexport const x = [LoadProfile, Session];\n"],
  ['app/runs/ok.ts', "import { median } from '../common/median.ts';\nimport { HostId } from '../hosts/hosts.ts';\nexport const x = [median, HostId];\n"],
  // Tests are exempt: a test may import any capability.
  ['app/runs/ok.test.ts', "import { PlanSpec } from '../plans/plan.ts';\nexport const x = PlanSpec;\n"],
  ['renderer/src/features/plans/ok.tsx', "import { ProfileForm } from '../runs/ProfileForm.tsx';\nimport { useSavedDraft } from '../../common/use-saved-draft.ts';\nexport const x = [ProfileForm, useSavedDraft];\n"],
  ['main/services/sessions/ok.ts', "import { HostsRepository } from '../hosts/hosts-repository.ts';\nexport const x = HostsRepository;\n"],
  // The file's text counts: plan.ts without its imports of runs and sessions is no cycle either.
  ['app/plans/plan.ts', "import { z } from 'zod';\nexport const x = z;\n"],
  // Outside the capability folders (the composed contract, the front doors), nothing is a cycle.
  ['app/contract.ts', "import { runRequests } from './runs/runs-contract.ts';\nexport const x = runRequests;\n"],
];

for (const [file, code] of oneWay) {
  test(`lint allows one-way capability imports in ${file}: ${code.split('\n')[0]}`, async () => {
    assert.deepEqual(await cycleErrors(file, code), []);
  });
}
