// The think time on the Run page, in web mode and real Chromium, with "This machine" as the client
// and a local HTTP server as the target: the closed model's field with its units, a bad bound
// refused beside its field, the proposed name saying the pause, and a short run whose rate stays
// within what its connections' pauses allow (at most one request per pause per connection).

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runPageOnThisMachine } from './pages/run-page.ts';

const local = runPageOnThisMachine();

test('a think time is set in ms, checked beside its field, named in the proposal, and bounds the rate', async () => {
  const connections = 2;
  const pauseMs = 200;
  await local.run.fill({ client: 'This machine', target: `http://127.0.0.1:${local.server.port}`, connections: String(connections), durationS: '2', thinkKind: 'uniform', thinkMinMs: '500', thinkMaxMs: '100' });
  assert.equal(await local.run.fieldError('thinkMaxMs').innerText(), 'must be greater than the shortest pause');
  await local.run.fill({ thinkKind: 'fixed', thinkMs: String(pauseMs) });
  await local.page.screenshot({ path: join(tmpdir(), 'benchlab-think-time.png') });
  assert.equal(await local.run.proposedName(), `http://127.0.0.1:${local.server.port}/hello — c=${connections}, 2 s, think ${pauseMs} ms`);
  await local.run.start();
  assert.equal(await local.run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  const rps = Number((await local.page.getByTestId('summary-rps').innerText()).replace(/,/g, ''));
  // A connection sends at most one request per pause (and one more at the window's edge).
  assert.ok(rps > 0 && rps <= connections * (1000 / pauseMs) + connections, `${rps} requests/s`);
  assert.deepEqual(await local.opened.cspViolations(), []);
});
