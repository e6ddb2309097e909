// The one run summary: fed second by second (live) or from the stored seconds (recovery, Compare),
// several clients of one second taken together for the window's verdicts, warm-up never counted.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from '../common/hdr.ts';
import type { RunSecond } from './run-second.ts';
import { judgeBottleneck } from './bottleneck.ts';
import { clientVerdictsOf, RunTally, runWindow, summarizeRun, summaryRulesOf, windowBottleneck } from './summarize-run.ts';
import { clientsOnServerMachine, type HostFacts } from '../hosts/host-facts.ts';

function second(index: number, change: Partial<RunSecond> = {}): RunSecond {
  const histogram = createLatencyHistogram();
  for (let i = 0; i < 200; i++) recordLatencyUs(histogram, 2000 + index * 10);
  return {
    second: index,
    clientIndex: 0,
    phase: 'measure',
    scheduled: 200,
    notSent: {},
    inFlight: 0,
    requests: 200,
    bytes: 200 * 100,
    errors: {},
    statusClasses: { '2xx': 200 },
    p50Us: 2000 + index * 10,
    p90Us: 2100,
    p99Us: 2500,
    maxUs: 3000,
    histogram: encodeHistogram(histogram),
    clientMetrics: { durationMs: 1000, at: 1000 * (index + 1), agentCpu: 0.2, cores: 2 },
    serverMetrics: { cpu: 0.5 },
    ...change,
  };
}

const rules = summaryRulesOf({ bucketsMs: [1, 5] }, { load: { model: 'closed', connections: 4, durationS: 12 } });

describe('summarizing a run', () => {
  test('the rules come from the profile and the stored step; defaults where they are missing', () => {
    assert.deepEqual(rules, { bucketsMs: [1, 5], timeoutsInLatency: false, targetRate: null, clientsOnServerMachine: [] });
    assert.deepEqual(summaryRulesOf(undefined, { load: { model: 'open', rate: 50, durationS: 10 } }), { bucketsMs: [800, 1200], timeoutsInLatency: true, targetRate: 50, clientsOnServerMachine: [] });
  });

  test('fed second by second it ends where the stored seconds read back end, steadiness judged only at the end', () => {
    const seconds = Array.from({ length: 12 }, (_, i) => second(i));
    const tally = new RunTally(rules);
    tally.add(second(0, { phase: 'warmup', requests: 99_999 }));
    for (const entry of seconds) tally.add(entry);
    assert.equal(tally.summary()!.steadiness, null, 'no verdict mid-run');
    assert.equal(tally.counted, 12, 'warm-up not counted');
    const live = tally.result();
    const readBack = summarizeRun(seconds, rules);
    assert.deepEqual(readBack.summary, live.summary);
    assert.equal(readBack.summary!.requests, 2400);
    assert.equal(readBack.summary!.seconds, 12);
    assert.ok(readBack.summary!.steadiness, 'twelve seconds are enough to judge steadiness');
    assert.ok(readBack.summary!.books?.balanced);
    assert.equal(readBack.histogram!.totalCount, 2400);
  });

  test("the server's memory: its lowest, highest and last reading; none read, none said", () => {
    const rss = [80e6, 120e6, 95e6, 110e6];
    const seconds = rss.map((bytes, i) => second(i, { serverMetrics: { cpu: 0.5, processRssBytes: bytes } }));
    // A second client's seconds carry the same server readings; a warm-up reading is not the run's.
    const tally = new RunTally(rules);
    tally.add(second(0, { phase: 'warmup', serverMetrics: { processRssBytes: 500e6 } }));
    for (const entry of seconds) tally.add(entry);
    tally.add(second(3, { clientIndex: 1, serverMetrics: { processRssBytes: 110e6 } }));
    assert.deepEqual(tally.result().summary!.serverMemory, { minBytes: 80e6, maxBytes: 120e6, endBytes: 110e6 });
    assert.deepEqual(summarizeRun(seconds, rules).summary!.serverMemory, { minBytes: 80e6, maxBytes: 120e6, endBytes: 110e6 }, 'read back as live');
    assert.equal(summarizeRun([second(0)], rules).summary!.serverMemory, null);
  });

  test('no stored second, no summary', () => {
    assert.deepEqual(summarizeRun([], rules), { summary: null, histogram: null, bottleneck: null });
  });

  test('two clients of one second are one second of the window: time counted once, counters added, percentiles from the added histograms', () => {
    const client = (i: number, index: number, lagMs: number) => second(i, { clientIndex: index, clientMetrics: { durationMs: 1000, at: 1000 * (i + 1), agentCpu: 0.1, eventLoopLagMs: lagMs } });
    const seconds = [0, 1, 2].flatMap((i) => [client(i, 0, 2), client(i, 1, 80)]);
    const { summary } = summarizeRun(seconds, rules);
    assert.equal(summary!.seconds, 3);
    assert.equal(summary!.requestsPerSecond, 400);
    const bottleneck = judgeBottleneck(runWindow(seconds), 500);
    assert.equal(bottleneck?.verdict, 'client-bound');
    assert.deepEqual(
      bottleneck.evidence.map((evidence) => [evidence.kind, evidence.seconds]),
      [
        ['below-target', 3],
        ['event-loop-lag', 3],
      ],
    );
    assert.match(bottleneck.evidence[0]!.message, /^achieved 400 of the 500 requests\/s/, 'both clients’ requests count');
    assert.match(bottleneck.evidence[1]!.message, /up to 80 ms/, 'the lagging client stands for the second');
    // The one merge (merge-seconds.ts): percentiles read from the added histograms, never the
    // slower client's own; event counts (local port errors) added, not the higher client's.
    const slowHistogram = createLatencyHistogram();
    for (let i = 0; i < 200; i++) recordLatencyUs(slowHistogram, 9000);
    const slower = seconds.map((entry) =>
      entry.clientIndex === 1 ? { ...entry, p50Us: 9000, p99Us: 9000, histogram: encodeHistogram(slowHistogram), clientMetrics: { ...entry.clientMetrics, portErrors: 3 } } : { ...entry, clientMetrics: { ...entry.clientMetrics, portErrors: 2 } },
    );
    const window = runWindow(slower);
    assert.deepEqual(
      window.map(({ second, requests, durationMs }) => [second, requests, durationMs]),
      [0, 1, 2].map((i) => [i, 400, 1000]),
      'one window second per second: requests added, time counted once',
    );
    for (const [i, merged] of window.entries()) {
      assert.ok(Math.abs(merged.p99Us! - 9000) <= 9, `second ${i}: p99 of the added histograms, ${merged.p99Us}`);
      assert.ok(Math.abs(merged.p50Us! - (2000 + i * 10)) <= 2, `second ${i}: p50 of the added histograms (the faster half), not the slower client's: ${merged.p50Us}`);
      assert.equal(merged.clientMetrics?.portErrors, 5, 'port errors added over the clients');
      assert.equal(merged.clientMetrics?.eventLoopLagMs, 80, 'the lagging client stands for the second');
    }
    const withoutHistograms = slower.map((entry) => ({ ...entry, histogram: null }));
    assert.deepEqual(
      runWindow(withoutHistograms).map(({ p50Us, p99Us }) => [p50Us, p99Us]),
      [0, 1, 2].map(() => [9000, 9000]),
      'read without their histograms, the slowest client’s percentiles bound the second',
    );
  });

  test('a client’s part that arrives long after its second merges by the highest percentiles: the window keeps recent histograms only', () => {
    const slowHistogram = createLatencyHistogram();
    for (let i = 0; i < 200; i++) recordLatencyUs(slowHistogram, 9000);
    const slow = (index: number) => second(index, { clientIndex: 1, p50Us: 9000, p99Us: 9000, histogram: encodeHistogram(slowHistogram) });
    const first = Array.from({ length: 40 }, (_, i) => second(i));
    const window = runWindow([...first, slow(0), slow(39)]);
    assert.equal(window[0]!.p50Us, 9000, 'second 0 had let its histogram go: the slower part bounds it');
    assert.ok(Math.abs(window[39]!.p50Us! - 2390) <= 2, `second 39 still merged from the added histograms: ${window[39]!.p50Us}`);
    assert.equal(window[0]!.requests, 400, 'its counts are added all the same');
  });

  test('one saturated client among four is named by its own verdict; one client has none', () => {
    const open = summaryRulesOf(undefined, { load: { model: 'open', rate: 800, durationS: 5 } });
    const seconds: RunSecond[] = [];
    for (let i = 0; i < 5; i++) {
      for (let client = 0; client < 4; client++) {
        const saturated = client === 2;
        // Each client is asked for 200 requests/s; the saturated one sends only 120 of them.
        seconds.push(
          second(i, {
            clientIndex: client,
            scheduled: 200,
            requests: saturated ? 120 : 200,
            statusClasses: { '2xx': saturated ? 120 : 200 },
            notSent: saturated ? { 'pool-full': 80 } : {},
            clientMetrics: { durationMs: 1000, at: 1000 * (i + 1), agentCpu: saturated ? 0.98 : 0.2, loadThreads: 1, eventLoopLagMs: saturated ? 120 : 1 },
          }),
        );
      }
    }
    const tally = new RunTally(open);
    for (const entry of seconds) tally.add(entry);
    const verdicts = tally.clientVerdicts();
    assert.deepEqual(clientVerdictsOf(seconds, open), verdicts, 'read back from the stored seconds, the same verdicts');
    assert.deepEqual(
      verdicts.map(({ clientIndex, bottleneck }) => [clientIndex, bottleneck?.verdict]),
      [
        [0, 'neither'],
        [1, 'neither'],
        [2, 'client-bound'],
        [3, 'neither'],
      ],
    );
    assert.match(verdicts[2]!.bottleneck!.evidence[0]!.message, /^achieved 120 of the 200 requests\/s target/, 'its own share of the target');
    assert.equal(tally.bottleneck()?.verdict, 'client-bound', 'the merged verdict as before: the busiest client stands for the second');
    const alone = new RunTally(open);
    for (let i = 0; i < 5; i++) alone.add(second(i));
    assert.deepEqual(alone.clientVerdicts(), []);
  });

  test('a client on the server’s machine (its boot id) gets no side named, in its own verdict and the merged one', () => {
    const facts = (boot: string) => ({ readings: { bootId: boot } }) as unknown as HostFacts;
    const shared = clientsOnServerMachine({ clients: [facts('b-1'), facts('b-2')], server: facts('b-2') });
    assert.deepEqual(shared, [1]);
    assert.deepEqual(clientsOnServerMachine({ clients: [facts('b-1')], server: null }), []);
    const open = summaryRulesOf(undefined, { load: { model: 'open', rate: 800, durationS: 5 } }, shared);
    const seconds: RunSecond[] = [];
    for (let i = 0; i < 5; i++) {
      for (const client of [0, 1]) {
        seconds.push(second(i, { clientIndex: client, scheduled: 400, requests: 100, statusClasses: { '2xx': 100 }, clientMetrics: { durationMs: 1000, at: 1000 * (i + 1), agentCpu: 0.2, loadThreads: 1, eventLoopLagMs: 1 } }));
      }
    }
    const tally = new RunTally(open);
    for (const entry of seconds) tally.add(entry);
    assert.deepEqual(
      tally.clientVerdicts().map(({ clientIndex, bottleneck }) => [clientIndex, bottleneck?.verdict]),
      [
        [0, 'server-bound'],
        [1, 'shared-machine'],
      ],
    );
    assert.equal(tally.bottleneck()?.verdict, 'shared-machine');
    assert.equal(windowBottleneck(runWindow(seconds), open)?.verdict, 'shared-machine', 'read back, the same');
  });
});
