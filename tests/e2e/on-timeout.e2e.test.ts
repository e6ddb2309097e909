// What a timed-out request does to its connection, on the Run page in web mode and real Chromium:
// the closed model offers closing it or waiting for the answer (wrk), the choice is kept with the
// form across a reload, the open model (which always closes) hides it, and a run with it completes.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runPageOnThisMachine } from './pages/run-page.ts';

const local = runPageOnThisMachine();

test('waiting at the timeout is chosen, kept across a reload, hidden for the open model, and runs', async () => {
  const choice = local.run.field('onTimeout');
  assert.equal(await choice.inputValue(), 'close', 'closing is the default');
  await local.run.fill({ client: 'This machine', target: `http://127.0.0.1:${local.server.port}`, connections: '2', durationS: '1', onTimeout: 'wait' });
  await local.page.screenshot({ path: join(tmpdir(), 'benchlab-on-timeout.png') });
  await local.run.waitForSaved();
  await local.page.reload();
  await local.page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
  await local.run.open();
  await local.run.waitForSaved();
  assert.equal(await local.run.field('onTimeout').inputValue(), 'wait', 'the form keeps the choice');
  await local.run.fill({ model: 'open' });
  assert.equal(await local.run.field('onTimeout').count(), 0, 'the open model closes a timed-out request’s connection: no choice');
  await local.run.fill({ model: 'closed' });
  assert.equal(await local.run.field('onTimeout').inputValue(), 'wait');
  await local.run.start();
  assert.equal(await local.run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  assert.deepEqual(await local.opened.cspViolations(), []);
});
