// The layering of docs/architecture.md is enforced by lint: these cases prove the rules fire (and stay quiet).

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
