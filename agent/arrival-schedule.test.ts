// Tests of the open model's schedule and of how a step is split over threads.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ArrivalSchedule } from './arrival-schedule.ts';
import { parseOpenFilesLimit } from './fd-limit.ts';
import { describeConnectionShortfall, planThreads } from './load-coordinator.ts';
import { share } from './thread-messages.ts';

describe('arrival schedule', () => {
  test('slots are evenly spaced from the start, released when due', () => {
    const schedule = new ArrivalSchedule({ startAt: 1000, rate: 100 });
    const due: number[] = [];
    schedule.release(1000, due);
    assert.deepEqual(due, [1000]);
    schedule.release(1035, due);
    assert.deepEqual(due, [1000, 1010, 1020, 1030]);
    assert.equal(schedule.nextAt(), 1040);
  });

  test('a late release hands over every slot that passed, with its own intended time', () => {
    const schedule = new ArrivalSchedule({ startAt: 0, rate: 1000 });
    const due: number[] = [];
    schedule.release(1000, due); // a 1 s stall of the loop
    assert.equal(due.length, 1001);
    assert.equal(due[500], 500);
  });

  test('phase interleaves threads; limit and end time stop the schedule', () => {
    const second = new ArrivalSchedule({ startAt: 0, rate: 100, phase: 0.5, limit: 3 });
    const due: number[] = [];
    second.release(10_000, due);
    assert.deepEqual(due, [5, 15, 25]);
    assert.equal(second.nextAt(), null);
    const timed = new ArrivalSchedule({ startAt: 0, rate: 10, endAt: 250 });
    const timedDue: number[] = [];
    timed.release(10_000, timedDue);
    assert.deepEqual(timedDue, [0, 100, 200]);
  });

  test('end() stops releasing', () => {
    const schedule = new ArrivalSchedule({ startAt: 0, rate: 10 });
    const due: number[] = [];
    schedule.release(150, due);
    schedule.end();
    schedule.release(10_000, due);
    assert.deepEqual(due, [0, 100]);
  });
});

describe('threads of a step', () => {
  const base = {
    role: 'load' as const,
    target: { protocol: 'http' as const, hostname: '10.0.0.2', port: 80 },
    request: { method: 'GET' as const, path: '/', headers: {}, timeoutMs: 1000 },
    warmupS: 0,
    capS: 10,
  };

  test('share splits whole numbers evenly', () => {
    assert.deepEqual([0, 1, 2].map((i) => share(10, 3, i)), [4, 3, 3]);
  });

  test('closed: connections and requests are split; never more threads than connections', () => {
    const threads = planThreads({ ...base, load: { model: 'closed', connections: 3, pipelining: 1, requests: 10 } }, 8);
    assert.equal(threads.length, 3);
    assert.deepEqual(threads.map((thread) => [thread.closed?.connections, thread.closed?.requests]), [
      [1, 4],
      [1, 3],
      [1, 3],
    ]);
  });

  test('a loopback target leaves one core to the server', () => {
    assert.equal(planThreads({ ...base, load: { model: 'closed', connections: 100, pipelining: 1, durationS: 1 } }, 4).length, 4);
    const loopback = { ...base, target: { ...base.target, hostname: '127.0.0.1' } };
    assert.equal(planThreads({ ...loopback, load: { model: 'closed', connections: 100, pipelining: 1, durationS: 1 } }, 4).length, 3);
    assert.equal(planThreads({ ...loopback, load: { model: 'closed', connections: 100, pipelining: 1, durationS: 1 } }, 1).length, 1);
  });

  test('open: the rate is split, threads interleave', () => {
    const threads = planThreads({ ...base, load: { model: 'open', rate: 1000, durationS: 5, connections: 100 } }, 4);
    assert.deepEqual(threads.map((thread) => [thread.open?.rate, thread.open?.phase, thread.open?.maxConnections]), [
      [250, 0, 25],
      [250, 0.25, 25],
      [250, 0.5, 25],
      [250, 0.75, 25],
    ]);
  });

  test('open without a maximum: rate × timeout connections, bounded by the file limit, split over the threads', () => {
    const open = { ...base, request: { ...base.request, timeoutMs: 2000 }, load: { model: 'open' as const, rate: 300, durationS: 5 } };
    assert.deepEqual(planThreads(open, 2, 100_000).map((thread) => thread.open?.maxConnections), [300, 300]);
    assert.deepEqual(planThreads(open, 2, 450).map((thread) => thread.open?.maxConnections), [225, 225]);
    // A maximum smaller than the cores: never a thread without a connection.
    assert.deepEqual(planThreads(open, 4, 2).map((thread) => thread.open?.maxConnections), [1, 1]);
    assert.deepEqual(planThreads({ ...open, load: { ...open.load, connections: 7 } }, 2, 3).map((thread) => thread.open?.maxConnections), [4, 3]);
  });

  test('closed connections past the file limit are refused before the step, with the way out', () => {
    const closed = { ...base, load: { model: 'closed' as const, connections: 1000, pipelining: 1, durationS: 5 } };
    assert.match(describeConnectionShortfall(closed, 960) ?? '', /^1000 connections need as many open files, but the agent may hold only 960 here .*raise nofile/);
    assert.equal(describeConnectionShortfall(closed, 1000), null);
    assert.equal(describeConnectionShortfall(closed, null), null, 'an unknown limit is not guessed');
    assert.equal(describeConnectionShortfall({ ...base, load: { model: 'open', rate: 5000, durationS: 5 } }, 10), null, 'the open model opens what the limit allows');
  });

  test('the soft open-files limit is read from /proc/self/limits', () => {
    const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n';
    assert.equal(parseOpenFilesLimit(limits), 1024);
    assert.equal(parseOpenFilesLimit(limits.replace('1024 ', 'unlimited ')), null);
    assert.equal(parseOpenFilesLimit(''), null);
  });
});
