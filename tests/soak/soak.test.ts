// The soak, short: each fault of `npm run soak` injected 3 times on the lab, the three side by side
// on lab instances of their own (tests/soak/injections.ts), with the invariants asserted instead of
// figures printed: the store's integrity, balanced books, no
// leftovers on the hosts, at most the second in flight lost per kill, the load stopped within the
// agent's own limits (within 1 s of a killed back end), a paused back end costing nothing under the
// heartbeat limit and named as silent past it, a lost link named by runs.live within its silence rule and the run ended as
// client link lost, a full data disk named by runs.live and the run ended as failed without a crash,
// revert restoring bytes, mode, owner and live values. The seed is in the test's
// diagnostics with each fault's table, so a failing run can be repeated with npm run soak -- --seed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HEARTBEAT_EVERY_MS, HEARTBEAT_TIMEOUT_MS } from '../../app/runs/agent-protocol.ts';
import { SILENT_AFTER_MS } from '../../main/services/runs/silence-watch.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { FAULTS } from './faults.ts';
import { figuresTable, type FaultFigures } from './figures.ts';
import { injectFault, SOAK_LANES } from './injections.ts';
import { freshSeed } from './seeded-random.ts';
import { openSoakLab, type SoakLab } from './soak-lab.ts';

const skip = labSkipReason({ sudoUser: true });
const REPEAT = 3;

/**
 * The agent stops its load after HEARTBEAT_TIMEOUT_MS without a line from Benchlab at the latest
 * (checked several times a second): within one more heartbeat interval of that, its load has stopped.
 */
const AGENT_STOP_LIMIT_MS = HEARTBEAT_TIMEOUT_MS + HEARTBEAT_EVERY_MS;
/** A Benchlab that is gone closes the agent's stdin: it stops on that at once, well within a second. */
const GONE_STOP_LIMIT_MS = 1000;
/** The live run names a silent agent after SILENT_AFTER_MS without a line, seen on its watch's next tick (4 a second). */
const REPORT_LIMIT_MS = SILENT_AFTER_MS + HEARTBEAT_EVERY_MS;

const checks: Record<string, (figure: FaultFigures) => void> = {
  'kill-backend': (figure) => {
    assert.ok(figure.secondsLost !== null && figure.secondsLost <= 1, `${figure.secondsLost} seconds lost`);
    assert.ok(figure.agentEndedMs !== null && figure.agentEndedMs <= GONE_STOP_LIMIT_MS, `the agent ended after ${figure.agentEndedMs} ms`);
    assert.ok(figure.loadStoppedMs !== null && figure.loadStoppedMs <= GONE_STOP_LIMIT_MS, `the last request came ${figure.loadStoppedMs} ms after the kill`);
    assert.equal(figure.extra['session interrupted on the next start'], true);
    assert.equal(figure.extra['stored end time − last stored second (s)'], 0);
  },
  'kill-preset-apply': (figure) => {
    assert.equal(figure.revert?.bytes, true, 'revert restored the bytes');
    assert.equal(figure.revert?.mode, true, 'revert restored the mode');
    assert.equal(figure.revert?.owner, true, 'revert restored the owner and group');
    assert.equal(figure.revert?.liveValues, true, 'revert restored the live values');
    assert.notEqual(figure.extra['pending revert shown on the next start (host changed)'], false);
  },
  'pause-backend': (figure) => {
    assert.equal(figure.extra['load agent outlived the pause'], true, 'the agent stopped its load while Benchlab was stopped');
    assert.match(String(figure.extra['run ended']), /^completed: /);
    assert.equal(figure.extra['second indexes missing'], '', 'every second of the window is stored');
    assert.equal(figure.extra['second indexes stored twice'], 0);
  },
  'pause-backend-long': (figure) => {
    assert.ok(figure.agentEndedMs !== null && figure.agentEndedMs <= AGENT_STOP_LIMIT_MS, `the agent ended ${figure.agentEndedMs} ms into the pause`);
    assert.ok(figure.loadStoppedMs !== null && figure.loadStoppedMs <= AGENT_STOP_LIMIT_MS, `the last request came ${figure.loadStoppedMs} ms into the pause`);
    assert.match(String(figure.extra['run ended']), /^failed: step 1 \(.*\): Benchlab was silent: it did not run for N s/);
  },
  'link-short': (figure) => linkChecks(figure),
  'link-long': (figure) => linkChecks(figure),
  'kill-server': (figure) => {
    assert.equal(figure.secondsLost, 0, 'the run went on and stored every second');
    assert.notEqual(figure.reportedMs, null, 'the failed requests were in the live summary');
  },
  'full-disk': (figure) => {
    assert.equal(figure.extra['back end crashed'], false, `the back end crashed: ${figure.extra['crashed with']}`);
    assert.equal(figure.extra['back end ended its run itself'], true);
    assert.match(String(figure.extra['run ended']), /^failed: the data disk is full \(DATA_DIR\): (stored up to HH:MM:SS|nothing was stored); free space and start again$/);
    assert.notEqual(figure.reportedMs, null, 'runs.live named the full disk');
    assert.notEqual(figure.agentEndedMs, null, 'the load agent ended');
  },
};

function linkChecks(figure: FaultFigures): void {
  assert.ok(figure.agentEndedMs !== null && figure.agentEndedMs <= AGENT_STOP_LIMIT_MS, `the agent ended ${figure.agentEndedMs} ms after the link went down`);
  assert.ok(figure.reportedMs !== null && figure.reportedMs <= REPORT_LIMIT_MS, `runs.live said so after ${figure.reportedMs} ms`);
  assert.match(String(figure.extra['run ended']), /^failed: client link lost/);
}

describe('soak, short: each fault 3 times on the lab', { skip: skip ?? false, concurrency: false }, () => {
  const labs: SoakLab[] = [];
  const seed = freshSeed();

  before(async () => {
    for (const instance of SOAK_LANES.slice(0, REPEAT)) labs.push(await openSoakLab(instance));
  });

  after(async () => {
    for (const lab of labs) await lab.close();
  });

  for (const fault of FAULTS) {
    test(fault.title, async (t) => {
      const figures = await injectFault(fault, labs, seed, REPEAT);
      t.diagnostic(`seed ${seed} (npm run soak -- --repeat ${REPEAT} --lanes ${labs.length} --seed ${seed} --only ${fault.id})\n${figuresTable(fault.title, figures)}`);
      for (const figure of figures) {
        const where = `injection ${figure.repeat} (${figure.injectedAt})`;
        assert.equal(figure.integrityOk, true, `${where}: integrity_check`);
        assert.notEqual(figure.booksBalanced, false, `${where}: the books do not balance`);
        assert.deepEqual(figure.leftovers, [], `${where}: left on the hosts`);
        try {
          checks[fault.id]!(figure);
        } catch (error) {
          throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
        }
      }
    });
  }
});
