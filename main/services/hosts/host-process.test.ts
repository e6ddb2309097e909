// Tests of HostTransport.start on this machine: a live stdin, streamed stdout, end and kill.
// (Over SSH the same is exercised by the lab run tests.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalTransport } from './local-transport.ts';

test('start: what is written comes back as it is written; closing stdin ends the command', async () => {
  let out = '';
  const process = await new LocalTransport().start('cat', { onStdout: (chunk) => (out += chunk) });
  process.write('one\n');
  await waitFor(() => out === 'one\n');
  process.write('two ✓\n');
  await waitFor(() => out === 'one\ntwo ✓\n');
  process.end();
  assert.deepEqual(await process.exited, { code: 0 });
});

test('start: kill ends the command and its children', async () => {
  let out = '';
  const process = await new LocalTransport().start('sleep 30 & echo started; wait', { onStdout: (chunk) => (out += chunk) });
  await waitFor(() => out.includes('started'));
  process.kill();
  const { code } = await process.exited;
  assert.notEqual(code, 0);
});

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
