// The silence detector on an injected clock: silent once nothing came for SILENT_AFTER_MS (once,
// with the time of the last line), heard again when a line comes, an announced pause let through,
// and the agent known gone by its own heartbeat rule only after AGENT_GONE_AFTER_MS.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HEARTBEAT_TIMEOUT_MS } from '../../../app/runs/agent-protocol.ts';
import { AGENT_GONE_AFTER_MS, SILENT_AFTER_MS, SilenceWatch } from './silence-watch.ts';

function watchOnClock(start = 1_000_000) {
  let now = start;
  const watch = new SilenceWatch(() => now);
  return {
    watch,
    advance(ms: number) {
      now += ms;
    },
    get now() {
      return now;
    },
  };
}

describe('silence watch', () => {
  test('reports silence once, after SILENT_AFTER_MS without a line, with the time of the last line', () => {
    const clock = watchOnClock();
    clock.watch.start();
    clock.advance(900);
    clock.watch.heard();
    const lastLine = clock.now;
    clock.advance(SILENT_AFTER_MS);
    assert.equal(clock.watch.check(), null, 'exactly the limit is not yet silence');
    assert.equal(clock.watch.silentSince, null);
    clock.advance(1);
    assert.deepEqual(clock.watch.check(), { since: lastLine });
    assert.equal(clock.watch.silentSince, lastLine);
    clock.advance(1000);
    assert.equal(clock.watch.check(), null, 'a silence is reported once');
    assert.equal(clock.watch.silentForMs(), SILENT_AFTER_MS + 1001);
  });

  test('a line ends the silence; a later gap is reported anew', () => {
    const clock = watchOnClock();
    clock.watch.start();
    clock.advance(SILENT_AFTER_MS + 500);
    assert.ok(clock.watch.check());
    assert.equal(clock.watch.heard(), true, 'the line ends a silence');
    assert.equal(clock.watch.silentSince, null);
    assert.equal(clock.watch.heard(), false, 'a line without a silence before it ends nothing');
    const resumed = clock.now;
    clock.advance(SILENT_AFTER_MS + 1);
    assert.deepEqual(clock.watch.check(), { since: resumed });
  });

  test('silence counts from the start of the watch, and a stopped watch is never silent', () => {
    const clock = watchOnClock();
    clock.advance(60_000);
    assert.equal(clock.watch.check(), null, 'not started: nothing expected');
    clock.watch.start();
    const started = clock.now;
    clock.advance(SILENT_AFTER_MS + 1);
    assert.deepEqual(clock.watch.check(), { since: started });
    clock.watch.stop();
    assert.equal(clock.watch.silentSince, null);
    clock.advance(60_000);
    assert.equal(clock.watch.check(), null);
    assert.equal(clock.watch.silentForMs(), 0);
    assert.equal(clock.watch.gone(), false);
  });

  test('an announced pause (the drain) is let through once; the next line ends it', () => {
    const clock = watchOnClock();
    clock.watch.start();
    clock.watch.allowPause(10_000);
    clock.advance(SILENT_AFTER_MS + 10_000);
    assert.equal(clock.watch.check(), null, 'within the pause');
    assert.equal(clock.watch.gone(), false, 'within the pause');
    clock.advance(1);
    assert.ok(clock.watch.check(), 'past the pause');
    clock.watch.heard();
    clock.advance(SILENT_AFTER_MS + 1);
    assert.ok(clock.watch.check(), 'a line ends the pause: the usual limit again');
  });

  test('the agent is known gone only once its own heartbeat rule has surely fired', () => {
    // The link fell at most one line period after the last line; the agent stops within its
    // heartbeat limit (checked every 250 ms) of the last heartbeat it got, which was before that.
    assert.ok(AGENT_GONE_AFTER_MS >= 1000 + HEARTBEAT_TIMEOUT_MS + 250, `${AGENT_GONE_AFTER_MS} ms`);
    assert.ok(AGENT_GONE_AFTER_MS > SILENT_AFTER_MS);
    const clock = watchOnClock();
    clock.watch.start();
    clock.advance(AGENT_GONE_AFTER_MS - 1);
    assert.equal(clock.watch.gone(), false);
    clock.advance(1);
    assert.equal(clock.watch.gone(), true);
    clock.watch.heard();
    assert.equal(clock.watch.gone(), false);
  });
});
