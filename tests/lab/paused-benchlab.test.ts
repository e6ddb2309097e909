// A Benchlab that is alive but not running never costs a run, on the `paused` lab: a real back end in
// a child process (tests/support/run-child.ts) runs an open-model session over SSH against a
// counting server on the server host and is stopped with SIGSTOP for 8 s mid-run, then continued.
// The agent keeps its seconds while Benchlab does not read them and delivers them when it reads
// again: the run completes with every second index stored once, and its books balance.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HEARTBEAT_TIMEOUT_MS } from '../../app/runs/agent-protocol.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { inject } from '../soak/pause-backend.ts';
import { seededRandom, freshSeed } from '../soak/seeded-random.ts';
import { openSoakLab, type SoakLab } from '../soak/soak-lab.ts';

const skip = labSkipReason();
const PAUSE_MS = 8000;
/** The window: long enough that the pause falls inside it, wherever it starts. */
const DURATION_S = 14;

describe('a Benchlab stopped mid-run', { skip: skip ?? false }, () => {
  let lab: SoakLab;
  before(async () => {
    lab = await openSoakLab('paused');
  });
  after(async () => {
    await lab?.close();
  });

  test('stopped (SIGSTOP) for 8 s, then continued: the run completes with every second stored and its books balanced', async (t) => {
    assert.ok(PAUSE_MS < HEARTBEAT_TIMEOUT_MS, 'the pause is one the agent must wait out');
    const seed = freshSeed();
    t.diagnostic(`seed ${seed}`);
    const figures = await inject(lab, seededRandom(seed, 'paused'), 1, PAUSE_MS, DURATION_S);
    t.diagnostic(JSON.stringify(figures));
    assert.equal(figures.extra['load agent outlived the pause'], true, 'the agent did not stop its load while Benchlab was stopped');
    assert.match(String(figures.extra['run ended']), /^completed: /);
    assert.equal(figures.extra['second indexes missing'], '', 'every second of the window is stored');
    assert.equal(figures.extra['seconds stored, of the window'], DURATION_S);
    assert.equal(figures.extra['second indexes stored twice'], 0);
    assert.equal(figures.secondsLost, 0);
    assert.equal(figures.integrityOk, true);
    assert.equal(figures.booksBalanced, true, 'the books balance');
    assert.deepEqual(figures.leftovers, [], 'nothing left on the hosts');
  });
});
