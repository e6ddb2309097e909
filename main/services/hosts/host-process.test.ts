// Tests of HostTransport.start on this machine: a live stdin, streamed stdout, end and kill.
// (Over SSH the same is exercised by the lab run tests.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { within } from '../../../tests/support/until.ts';
import { LocalTransport } from './local-transport.ts';

test('start: what is written comes back as it is written; closing stdin ends the command', async () => {
  const out = new Output();
  const process = await new LocalTransport().start('cat', { onStdout: out.onStdout });
  process.write('one\n');
  await out.until((text) => text === 'one\n');
  process.write('two ✓\n');
  await out.until((text) => text === 'one\ntwo ✓\n');
  process.end();
  assert.deepEqual(await process.exited, { code: 0 });
});

test('start: kill ends the command and its children', async () => {
  const out = new Output();
  const process = await new LocalTransport().start('sleep 30 & echo started; wait', { onStdout: out.onStdout });
  await out.until((text) => text.includes('started'));
  process.kill();
  const { code } = await process.exited;
  assert.notEqual(code, 0);
});

/** A command's stdout as it arrives; waits are re-checked on each chunk (bounded), not on a timer. */
class Output {
  text = '';
  #wake: () => void = () => undefined;
  readonly onStdout = (chunk: string): void => {
    this.text += chunk;
    this.#wake();
  };
  until(check: (text: string) => boolean, timeoutMs = 5000): Promise<void> {
    const arrived = new Promise<void>((resolve) => {
      this.#wake = () => check(this.text) && resolve();
      this.#wake();
    });
    return within(arrived, 'the output', timeoutMs);
  }
}
