import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLatencyHistogram, decodeHistogram, encodeHistogram, latencyStats, recordLatencyUs } from '../common/hdr.ts';
import { seededRandom } from '../sessions/compare-stats.ts';
import { intervalBalances } from './run-summary.ts';
import { clientCountOf, MERGED_CLIENT_INDEX, mergeClientSeconds, mergedBySecond, mergedWithParts, SecondAligner } from './merge-seconds.ts';
import { summarySecondOf, type RunSecond } from './run-second.ts';

const random = seededRandom(1515);

/** One client's second with `latencies` recorded the way the agent does, and balanced books. */
function clientSecond(clientIndex: number, second: number, latencies: readonly number[], change: Partial<RunSecond> = {}): RunSecond {
  const histogram = createLatencyHistogram();
  for (const us of latencies) recordLatencyUs(histogram, us);
  const stats = latencyStats(histogram);
  return {
    second,
    clientIndex,
    phase: 'measure',
    scheduled: latencies.length + 3,
    notSent: { 'pool-full': 1 },
    inFlight: 0,
    requests: latencies.length,
    bytes: latencies.length * 100,
    errors: { timeout: 2 },
    statusClasses: { '2xx': latencies.length },
    p50Us: stats.p50Us,
    p90Us: stats.p90Us,
    p99Us: stats.p99Us,
    maxUs: stats.maxUs,
    histogram: stats.count === 0 ? null : encodeHistogram(histogram),
    clientMetrics: { at: 10_000 + second * 1000 + clientIndex, durationMs: 1000, cpu: 0.1 * (clientIndex + 1), agentCpu: 0.5, eventLoopLagMs: clientIndex, sent: latencies.length },
    serverMetrics: clientIndex === 0 ? null : { cpu: 0.4 },
    ...change,
  };
}

const latencies = (count: number, scaleUs: number) => Array.from({ length: count }, () => Math.round(scaleUs * (1 + 20 * random() ** 4)));

test('the merged histogram equals one histogram fed every request of every client', () => {
  for (let round = 0; round < 25; round++) {
    const clients = 2 + Math.floor(random() * 6);
    const all = createLatencyHistogram();
    const seconds = Array.from({ length: clients }, (_, index) => {
      const values = latencies(Math.floor(random() * 3000), 200 * (index + 1));
      for (const us of values) recordLatencyUs(all, us);
      return clientSecond(index, 4, values);
    });
    const merged = mergeClientSeconds(seconds);
    const mergedHistogram = decodeHistogram(merged.histogram!);
    assert.equal(mergedHistogram.totalCount, all.totalCount);
    assert.deepEqual(latencyStats(mergedHistogram), latencyStats(all));
    const direct = latencyStats(all);
    assert.deepEqual([merged.p50Us, merged.p90Us, merged.p99Us, merged.maxUs], [direct.p50Us, direct.p90Us, direct.p99Us, direct.maxUs]);
    assert.equal(merged.requests, all.totalCount);
    assert.equal(merged.clientIndex, MERGED_CLIENT_INDEX);
    const unencoded = mergeClientSeconds(seconds, { histogram: false });
    assert.deepEqual(unencoded, { ...merged, histogram: null }, 'left out, the histogram changes nothing else');
  }
});

test('percentiles come from the added histogram, not from averaging or taking the worst client', () => {
  const fast = clientSecond(0, 0, Array.from({ length: 990 }, () => 1000));
  const slow = clientSecond(1, 0, Array.from({ length: 10 }, () => 50_000));
  const merged = mergeClientSeconds([fast, slow]);
  // 1 % of all requests took 50 ms: p99 sits at the fast client's 1 ms, p99 of the slow one alone is 50 ms.
  assert.ok(Math.abs(merged.p99Us! - 1000) <= 1, `p99 ${merged.p99Us}`);
  assert.ok(merged.maxUs! >= 50_000);
  assert.ok(slow.p99Us! >= 50_000);
});

test('counts, books and bytes add up, and the books balance merged as they do per client', () => {
  const a = clientSecond(0, 2, latencies(700, 300), { inFlight: 5, scheduled: 700 + 3 + 5 });
  const b = clientSecond(1, 2, latencies(300, 300), { errors: { timeout: 1, reset: 2 }, statusClasses: { '2xx': 290, '5xx': 10 }, scheduled: 304 });
  assert.ok(intervalBalances(summarySecondOf(a), 0));
  assert.ok(intervalBalances(summarySecondOf(b), 0));
  const merged = mergeClientSeconds([a, b]);
  assert.equal(merged.requests, 1000);
  assert.equal(merged.bytes, 100_000);
  assert.equal(merged.scheduled, 708 + 304);
  assert.equal(merged.inFlight, 5);
  assert.deepEqual(merged.errors, { timeout: 3, reset: 2 });
  assert.deepEqual(merged.notSent, { 'pool-full': 2 });
  assert.deepEqual(merged.statusClasses, { '2xx': 990, '5xx': 10 });
  assert.ok(intervalBalances(summarySecondOf(merged), 0));
  // Books missing on one client: missing merged.
  assert.equal(mergeClientSeconds([a, { ...b, scheduled: null, inFlight: null }]).scheduled, null);
});

test('client readings: the latest time, the longest duration, the busiest client, event counters added; the server’s first reading', () => {
  const merged = mergeClientSeconds([clientSecond(0, 1, [100, 200]), clientSecond(1, 1, [300], { clientMetrics: { at: 11_500, durationMs: 800, cpu: 0.9, agentCpu: 0.2, eventLoopLagMs: 7, sent: 1 } })]);
  assert.deepEqual(merged.clientMetrics, { at: 11_500, durationMs: 1000, cpu: 0.9, agentCpu: 0.5, eventLoopLagMs: 7, sent: 3 });
  assert.deepEqual(merged.serverMetrics, { cpu: 0.4 });
});

test('seconds read without histograms keep the slowest client’s percentiles; a second without answers merges to none', () => {
  const bare = (second: RunSecond): RunSecond => ({ ...second, histogram: null });
  const merged = mergeClientSeconds([bare(clientSecond(0, 0, [1000])), bare(clientSecond(1, 0, [9000]))]);
  assert.equal(merged.histogram, null);
  assert.ok(merged.p99Us! >= 9000);
  const silent = mergeClientSeconds([clientSecond(0, 0, []), clientSecond(1, 0, [])]);
  assert.equal(silent.histogram, null);
  assert.equal(silent.p99Us, null);
  assert.throws(() => mergeClientSeconds([]), /at least one/);
  assert.throws(() => mergeClientSeconds([clientSecond(0, 0, [1]), clientSecond(1, 1, [1])]), /one phase and index/);
});

test('a run’s seconds merge per phase and second, in order; each client’s drain joins the one drain', () => {
  const seconds = [
    clientSecond(1, 1, [10]),
    clientSecond(0, 0, [10]),
    clientSecond(0, 1, [10, 20]),
    clientSecond(1, 0, [10]),
    clientSecond(0, 2, [10], { phase: 'drain' }),
    clientSecond(1, 1, [10], { phase: 'drain', second: 1 }),
  ];
  assert.deepEqual(
    mergedWithParts(seconds).map(({ parts }) => parts.map((part) => part.clientIndex)),
    [[0, 1], [0, 1], [0, 1]],
    'each merged second with its parts, by client',
  );
  const merged = mergedBySecond(seconds);
  assert.deepEqual(merged.map((second) => [second.phase, second.second, second.requests]), [
    ['measure', 0, 2],
    ['measure', 1, 3],
    ['drain', 2, 2],
  ]);
});

test('one client’s seconds read exactly as stored', () => {
  const seconds = [clientSecond(0, 1, [10]), clientSecond(0, 0, [20])];
  const read = mergedBySecond(seconds);
  assert.deepEqual(read, [seconds[1], seconds[0]]);
  assert.equal(read[0], seconds[1]);
  assert.equal(clientCountOf(seconds), 1);
});

test('the aligner releases a second once every running client gave it, in order, with its parts', () => {
  const aligner = new SecondAligner(3);
  assert.deepEqual(aligner.add(clientSecond(0, 0, [10])), []);
  assert.deepEqual(aligner.add(clientSecond(1, 0, [10])), []);
  assert.deepEqual(aligner.add(clientSecond(0, 1, [10])), []);
  const released = aligner.add(clientSecond(2, 0, [10, 20]));
  assert.equal(released.length, 1);
  assert.equal(released[0]!.merged.requests, 4);
  assert.deepEqual(released[0]!.parts.map((part) => part.clientIndex), [0, 1, 2]);
  // A client that skipped second 1 and gave 2: the others' later seconds release everything before.
  aligner.add(clientSecond(1, 2, [10]));
  aligner.add(clientSecond(0, 2, [10]));
  const later = aligner.add(clientSecond(2, 2, [10]));
  assert.deepEqual(later.map((aligned) => [aligned.merged.second, aligned.parts.length]), [[1, 1], [2, 3]]);
  // A part for a second already drawn is not drawn twice.
  assert.deepEqual(aligner.add(clientSecond(1, 1, [10])), []);
});

test('a dropped client releases the seconds that waited only on it, and its own late ones stay out of the order', () => {
  const aligner = new SecondAligner(2);
  aligner.add(clientSecond(0, 0, [10]));
  aligner.add(clientSecond(0, 1, [10]));
  assert.deepEqual(aligner.add(clientSecond(0, 2, [10])), []);
  const released = aligner.dropClient(1);
  assert.deepEqual(released.map((aligned) => aligned.merged.second), [0, 1, 2]);
  assert.deepEqual(aligner.add(clientSecond(0, 3, [10])).map((aligned) => aligned.merged.second), [3]);
});

test('flush releases whatever is still held, in order; a warm-up second is merged and released like the others', () => {
  const aligner = new SecondAligner(2);
  aligner.add(clientSecond(0, 0, [10], { phase: 'warmup' }));
  assert.deepEqual(aligner.add(clientSecond(1, 0, [10], { phase: 'warmup' })).map((aligned) => aligned.merged.phase), ['warmup']);
  aligner.add(clientSecond(0, 0, [10]));
  aligner.add(clientSecond(0, 1, [10], { phase: 'drain' }));
  assert.deepEqual(aligner.flush().map((aligned) => [aligned.merged.phase, aligned.parts.length]), [['measure', 1], ['drain', 1]]);
  assert.deepEqual(aligner.flush(), []);
  assert.throws(() => aligner.add(clientSecond(2, 0, [10])), /not one of this run's 2 clients/);
  assert.throws(() => new SecondAligner(0), /at least one client/);
});

test('property: when each client’s books balance second by second, the merged seconds’ books balance too', () => {
  for (let round = 0; round < 200; round++) {
    const clients = 2 + Math.floor(random() * 5);
    const seconds: RunSecond[] = [];
    for (let client = 0; client < clients; client++) {
      let inFlight = 0;
      for (let index = 0; index < 8; index++) {
        const before = inFlight;
        const scheduled = Math.floor(random() * 500);
        // Of what was open (in flight before + scheduled now), some are answered, fail, time out, are not sent; the rest stay in flight.
        let open = before + scheduled;
        const take = () => {
          const count = Math.floor(random() * (open + 1) * 0.5);
          open -= count;
          return count;
        };
        const answered = take();
        const timeouts = take();
        const notSent = take();
        inFlight = index === 7 ? 0 : open;
        const drained = index === 7 ? open : 0;
        const second = clientSecond(client, index, latencies(answered + drained, 100), {
          scheduled,
          inFlight,
          errors: { timeout: timeouts },
          notSent: { 'pool-full': notSent },
        });
        assert.ok(intervalBalances(summarySecondOf(second), before), 'each client’s own books balance');
        seconds.push(second);
      }
    }
    let inFlightBefore = 0;
    for (const merged of mergedBySecond(seconds)) {
      assert.ok(intervalBalances(summarySecondOf(merged), inFlightBefore), `merged second ${merged.second} balances`);
      inFlightBefore = merged.inFlight!;
    }
  }
});
