// The run's link watch on an injected clock, with a stand-in for the host connections: a silent
// source is published with the time of its last line and its host suspected; the client is lost
// only once its agent is gone by its own rule AND its host does not answer; a silent server never
// ends the run; a line clears the silence; of two clients, the silent one is published and lost by name.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clockTime } from '../../../app/common/clock-time.ts';
import type { HostConnection } from '../../../app/hosts/connections.ts';
import type { LiveRun } from '../../../app/runs/runs.ts';
import { RunLinkWatch } from './run-link-watch.ts';
import { AGENT_GONE_AFTER_MS, SILENT_AFTER_MS } from './silence-watch.ts';
import { HEARTBEAT_TIMEOUT_MS } from '../../../app/runs/agent-protocol.ts';

const CLIENT = 1;
const SERVER = 2;
const FIRST = { client: 0 };

function fixture(clients = [{ hostId: CLIENT, name: 'client' }]) {
  let now = Date.parse('2025-01-01T12:00:00Z');
  const unresponsive = new Set<number>();
  const suspected: Array<{ hostId: number; since: number }> = [];
  const heard: number[] = [];
  const published: Array<LiveRun['silentSince']> = [];
  const lost: string[] = [];
  const lostClients: number[] = [];
  const watch = new RunLinkWatch({
    connections: {
      suspect: (hostId, since) => void suspected.push({ hostId, since: since.getTime() }),
      heard: (hostId) => void heard.push(hostId),
      state: (hostId) => ({ hostId, state: 'connected', message: null, since: '', unresponsiveSince: unresponsive.has(hostId) ? 'x' : null }) as HostConnection,
    },
    clients,
    serverHostId: SERVER,
    onSilence: (silentSince) => published.push(silentSince),
    onClientLost: (clientIndex, message) => {
      lostClients.push(clientIndex);
      lost.push(message);
    },
    clock: () => now,
  });
  /** Time passes with Benchlab running: the watch ticks every 250 ms, as its ticker does. */
  const advance = (ms: number) => {
    for (let left = ms; left > 0; left -= 250) {
      now += Math.min(250, left);
      watch.tick();
    }
  };
  /** Benchlab itself does not run for `ms` (stopped, a long GC): no tick, then one late tick. */
  const stall = (ms: number) => {
    now += ms;
  };
  return { watch, advance, stall, unresponsive, suspected, heard, published, lost, lostClients, now: () => now };
}

describe('run link watch', () => {
  test('a silent client is published and suspected, then lost once gone and unanswering', (t) => {
    const f = fixture();
    t.after(() => f.watch.close());
    f.watch.started(FIRST);
    f.advance(1000);
    f.watch.heard(FIRST);
    const lastLine = f.now();
    f.advance(SILENT_AFTER_MS);
    assert.deepEqual(f.published, []);
    f.advance(250);
    assert.deepEqual(f.published, [{ client: new Date(lastLine).toISOString(), server: null }]);
    assert.deepEqual(f.suspected, [{ hostId: CLIENT, since: lastLine }]);
    f.advance(AGENT_GONE_AFTER_MS);
    assert.equal(f.lost.length, 0, 'the host still answers: its agent is stuck, not cut off');
    f.unresponsive.add(CLIENT);
    f.advance(250);
    assert.equal(f.lost.length, 1);
    assert.match(f.lost[0]!, /^client link lost at (\d\d:\d\d:\d\d): no data from the client's agent for \d+(\.\d)? s; what was stored is kept$/);
    assert.ok(f.lost[0]!.includes(`at ${clockTime(lastLine)}:`));
    f.advance(5000);
    assert.equal(f.lost.length, 1, 'lost once');
  });

  test('a silent server is published, never ends the run, and a line clears it', (t) => {
    const f = fixture();
    t.after(() => f.watch.close());
    f.watch.started(FIRST);
    f.watch.started('server');
    const serverLast = f.now();
    for (let second = 0; second < 30; second++) {
      f.advance(1000);
      f.watch.heard(FIRST);
    }
    f.unresponsive.add(SERVER);
    assert.deepEqual(f.lost, []);
    assert.deepEqual(f.published, [{ client: null, server: new Date(serverLast).toISOString() }]);
    assert.deepEqual(f.suspected, [{ hostId: SERVER, since: serverLast }]);
    f.watch.heard('server');
    assert.deepEqual(f.published.at(-1), { client: null, server: null });
    assert.deepEqual(f.heard, [SERVER], 'its host is heard again');
  });

  test('a client between steps is not expected to send, and its silence ends with its step', (t) => {
    const f = fixture();
    t.after(() => f.watch.close());
    f.watch.started(FIRST);
    f.advance(SILENT_AFTER_MS + 250);
    assert.equal(f.published.length, 1);
    f.watch.stopped(FIRST);
    assert.deepEqual(f.published.at(-1), { client: null, server: null });
    f.unresponsive.add(CLIENT);
    f.advance(60_000);
    assert.deepEqual(f.lost, []);
  });

  test('with two clients, the one whose agent goes silent and whose host does not answer is lost by name; the other is not', (t) => {
    const OTHER_CLIENT = 3;
    const f = fixture([
      { hostId: CLIENT, name: 'bl-client' },
      { hostId: OTHER_CLIENT, name: 'bl-client2' },
    ]);
    t.after(() => f.watch.close());
    const second = { client: 1 };
    f.watch.started(FIRST);
    f.watch.started(second);
    const secondLast = f.now();
    for (let tick = 0; tick < 4; tick++) {
      f.advance(1000);
      f.watch.heard(FIRST);
    }
    assert.deepEqual(
      f.published,
      [{ client: new Date(secondLast).toISOString(), server: null, clients: [{ index: 1, since: new Date(secondLast).toISOString() }] }],
      'the silent client is published by index although the other one sends',
    );
    assert.deepEqual(f.suspected, [{ hostId: OTHER_CLIENT, since: secondLast }]);
    f.unresponsive.add(OTHER_CLIENT);
    for (let tick = 0; tick < AGENT_GONE_AFTER_MS / 1000 + 1; tick++) {
      f.advance(1000);
      f.watch.heard(FIRST);
    }
    assert.deepEqual(f.lostClients, [1]);
    assert.match(f.lost[0]!, /^client link lost at \d\d:\d\d:\d\d: no data from the agent on bl-client2 for \d+(\.\d)? s; what was stored is kept$/);
  });

  test('Benchlab’s own stall is no agent’s silence, and is remembered for the end it caused', () => {
    const f = fixture();
    f.watch.started(FIRST);
    f.watch.started('server');
    f.advance(1000);
    f.watch.heard(FIRST);
    f.watch.heard('server');
    // Stopped for 10 s: on resume the lines read before the late tick clear nothing, and nothing is silent.
    f.stall(10_000);
    const stalledMs = () => f.watch.stallsWithin(60_000).reduce((sum, stall) => sum + stall.to - stall.from, 0);
    assert.equal(stalledMs(), 10_000 - 250, 'coming out of a stall, it is known before the late tick');
    f.advance(250);
    assert.deepEqual(f.published, [], 'no silence published for the time Benchlab did not run');
    assert.deepEqual(f.suspected, [], 'no host suspected');
    assert.equal(stalledMs(), 10_000, 'noted by the late tick: from the tick that should have come');
    // A real silence after it still counts from the last line or the stall's end, whichever is later.
    f.advance(SILENT_AFTER_MS + 250);
    const last = f.published.at(-1) as LiveRun['silentSince'] | undefined;
    assert.ok(last && last.client !== null, 'silent after the rule, once Benchlab runs');
    assert.equal(stalledMs(), 10_000, 'the stall stays the one it was');
    assert.deepEqual(f.watch.stallsWithin(SILENT_AFTER_MS), [], 'and is not within a window that ends after it');
  });

  test('an agent stopped by its heartbeat rule: Benchlab silent when one stall left it no second to send in, else the link', () => {
    const heartbeat = { reason: 'heartbeat' as const, message: null };
    const paused = fixture();
    paused.advance(1000);
    paused.stall(HEARTBEAT_TIMEOUT_MS + 5000);
    // The end line is read on resume, before the late tick.
    assert.match(paused.watch.whoWasSilent(heartbeat, 'lab-client').message!, /^Benchlab was silent: it did not run for 19\.8 s \(its process stopped, or the machine too busy to run it\), so the agent on lab-client heard nothing from it for 15 s and stopped its load$/);
    const dropped = fixture();
    dropped.advance(HEARTBEAT_TIMEOUT_MS + 5000);
    // Two short stalls of a busy machine do not make a silent Benchlab.
    dropped.stall(1500);
    dropped.advance(1000);
    dropped.stall(1500);
    assert.match(dropped.watch.whoWasSilent(heartbeat, 'lab-client').message!, /^the link to lab-client was lost: its agent heard nothing from Benchlab for 15 s and stopped its load$/);
    // Nor do many: a machine too busy for seconds at a time (stalls adding up past half the limit)
    // still ran Benchlab between them, and each time it ran it sent its heartbeat.
    const busy = fixture();
    busy.advance(HEARTBEAT_TIMEOUT_MS + 5000);
    for (let i = 0; i < 5; i++) {
      busy.stall(2500);
      busy.advance(500);
    }
    assert.ok(busy.watch.stallsWithin(HEARTBEAT_TIMEOUT_MS + 5000).reduce((sum, stall) => sum + stall.to - stall.from, 0) > HEARTBEAT_TIMEOUT_MS / 2);
    assert.match(busy.watch.whoWasSilent(heartbeat, 'lab-client').message!, /^the link to lab-client was lost/);
    // One long stall after which a short one came still names Benchlab.
    const resumed = fixture();
    resumed.advance(1000);
    resumed.stall(HEARTBEAT_TIMEOUT_MS + 2000);
    resumed.advance(300);
    resumed.stall(1200);
    assert.match(resumed.watch.whoWasSilent(heartbeat, 'lab-client').message!, /^Benchlab was silent: it did not run for 1[67](\.\d)? s/);
    const completed = { reason: 'completed' as const, message: null };
    assert.equal(paused.watch.whoWasSilent(completed, 'lab-client'), completed);
  });
});
