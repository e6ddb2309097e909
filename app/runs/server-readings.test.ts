// Tests of pairing the server sampler's readings with client seconds: each second gets the reading
// taken in it, a burst of late client seconds still pairs by time, and a second for which no reading
// was taken is a gap, never the reading before again.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ServerMetrics } from './agent-protocol.ts';
import { ServerReadings } from './server-readings.ts';

/** A reading that says which one it is by its CPU figure. */
const reading = (id: number, readAt?: number): ServerMetrics =>
  ({ cpuUser: 0, cpuSystem: 0, cpuIowait: 0, cpu: id, cores: 2, memTotalBytes: 1, memUsedBytes: 1, processRssBytes: null, processFds: null, processThreads: null, processPid: null, rxBytesPerS: 0, txBytesPerS: 0, tcp: {}, busiestCoreCpu: null, processCpu: null, listenOverflows: 0, listenDrops: 0, ...(readAt === undefined ? {} : { readAt }) }) as ServerMetrics;

// The sampler's clock runs 5 s ahead of the client's; lines take 20 ms to arrive.
const SERVER_AHEAD_MS = 5000;
const T0 = 1_000_000;

describe('server readings by client second', () => {
  test('each second gets the reading taken in it, on either clock, with jitter', () => {
    const readings = new ServerReadings();
    const got: Array<number | null> = [];
    for (let i = 0; i < 10; i++) {
      // Readings taken 300 ms before each client boundary, with ±60 ms of jitter in arrival.
      const readAt = T0 + i * 1000 - 300;
      readings.add(reading(i, readAt + SERVER_AHEAD_MS), readAt + 20 + (i % 2) * 60);
      const endAt = T0 + i * 1000;
      got.push(readings.forSecond(0, endAt, endAt + 20 + ((i + 1) % 2) * 60)?.cpu ?? null);
    }
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test('a stalled sampler leaves gaps, never copies of its last reading', () => {
    // The stopped run as found: one reading, then six client seconds with none taken in them.
    const readings = new ServerReadings();
    readings.add(reading(1, T0 - 300), T0 - 280);
    const got = [0, 1, 2, 3, 4, 5].map((i) => readings.forSecond(0, T0 + i * 1000, T0 + i * 1000 + 20)?.cpu ?? null);
    assert.deepEqual(got, [1, null, null, null, null, null]);
  });

  test('client seconds that arrive in a burst still pair by when they were read', () => {
    const readings = new ServerReadings();
    // The first second shows the link's usual delay; then six come at once, 6 s late.
    readings.add(reading(0, T0 - 300), T0 - 280);
    assert.equal(readings.forSecond(0, T0, T0 + 20)?.cpu, 0);
    for (let i = 1; i <= 6; i++) readings.add(reading(i, T0 + i * 1000 - 300), T0 + i * 1000 - 280);
    const burst = [1, 2, 3, 4, 5, 6].map((i) => readings.forSecond(0, T0 + i * 1000, T0 + 6500)?.cpu ?? null);
    assert.deepEqual(burst, [1, 2, 3, 4, 5, 6]);
  });

  test('each client gets each reading once; an agent without read times pairs by arrival', () => {
    const readings = new ServerReadings();
    readings.add(reading(7), T0 - 100);
    assert.equal(readings.forSecond(0, T0, T0 + 10)?.cpu, 7);
    assert.equal(readings.forSecond(1, T0, T0 + 15)?.cpu, 7, 'another client’s second of the same time gets it too');
    assert.equal(readings.forSecond(0, T0 + 1000, T0 + 1010), null, 'the same client’s next second does not');
  });
});
