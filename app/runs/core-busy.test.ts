// Tests of each core's busy share as a stored second keeps it: a 256-core host's shares fit the
// runtime figures' 1 KB a second, read back exactly as the agent sent them (per mille), and a row
// stored before (a `core.<N>` key per core) reads the same in the chart point, the verdict and the
// export.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServerMetrics } from './agent-protocol.ts';
import { judgeBottleneck, type BottleneckSecond } from './bottleneck.ts';
import { chartPoint } from './chart-point.ts';
import { coreCpuOf, encodeCoreBusy } from './core-busy.ts';
import { storedServerMetrics, type RunSecond } from './run-second.ts';

const READING: ServerMetrics = {
  cpuUser: 0.4, cpuSystem: 0.1, cpuIowait: 0, cpu: 0.5, cores: 256, memTotalBytes: 10, memUsedBytes: 5, processRssBytes: 1, processFds: 3, processThreads: 42,
  processPid: 9, rxBytesPerS: 0, txBytesPerS: 0, tcp: { ESTABLISHED: 4 }, busiestCoreCpu: 1, processCpu: 1, listenOverflows: 0, listenDrops: 0,
};

/** Shares as the agent sends them (rounded to 0.001), every value from 0 to 1 among a 256-core host's. */
function agentShares(cores: number): number[] {
  return Array.from({ length: cores }, (_, core) => (core === 0 ? 0 : core === 1 ? 1 : Math.round(((core * 389) % 1001)) / 1000));
}

/** The same shares as a row stored before `coreBusy`: one `core.<N>` key each. */
function olderRow(shares: readonly number[]): Record<string, number> {
  return Object.fromEntries(shares.map((share, core) => [`core.${core}`, share]));
}

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

test("a 256-core host's shares add two bytes a core to the stored second, and come back as the agent sent them", () => {
  const shares = agentShares(256);
  const stored = storedServerMetrics({ ...READING, coreCpu: shares });
  const without = storedServerMetrics(READING);
  const added = bytes(stored) - bytes(without);
  assert.ok(added <= 2 * 256 + 16, `the cores added ${added} bytes`);
  // With every other runtime figure a Node server's reading has (the most of any runtime), at most 1 KB.
  const others = { runQueue: 17, hostContextSwitchesPerS: 148_211, processVoluntarySwitchesPerS: 112_843, processInvoluntarySwitchesPerS: 11_204, tcpRetransmits: 12,
    gcPauses: 13, gcPauseMs: 114.273, gcLongestPauseMs: 18.125, heapAfterGcBytes: 161_865_984, eventLoopDelayP50Ms: 0.213, eventLoopDelayP99Ms: 12.583, eventLoopDelayMaxMs: 141.287, monitorWakesPerS: 101 };
  const all = bytes(storedServerMetrics({ ...READING, coreCpu: shares, ...others })) - bytes(without);
  assert.ok(all <= 1024, `the runtime figures added ${all} bytes`);
  assert.deepEqual(coreCpuOf(stored), shares);
  assert.deepEqual(Object.keys(stored).filter((key) => key.startsWith('core.')), [], 'one shape: no key per core');
  assert.deepEqual(coreCpuOf(JSON.parse(JSON.stringify(stored))), shares, 'as the store gives it back');
});

test('a share out of 0..1 is kept at its bound; no cores read stores nothing; a string this reader did not write reads as no cores', () => {
  assert.deepEqual(coreCpuOf({ coreBusy: encodeCoreBusy([-0.2, 1.3, 0.4996, Number.NaN]) }), [0, 1, 0.5, 0]);
  assert.equal(storedServerMetrics({ ...READING, coreCpu: [] }).coreBusy, undefined);
  assert.deepEqual(coreCpuOf({}), []);
  assert.deepEqual(coreCpuOf(null), []);
  for (const foreign of ['A', 'A*', 'zz']) assert.deepEqual(coreCpuOf({ coreBusy: foreign }), [], foreign);
});

test('a row stored with a key per core reads the same as one stored now: the chart point, the export order of cores', () => {
  const shares = agentShares(64);
  const now = storedServerMetrics({ ...READING, cores: 64, coreCpu: shares });
  const { coreBusy: _coreBusy, ...figures } = now;
  const before = { ...figures, ...olderRow(shares) };
  assert.deepEqual(coreCpuOf(before), coreCpuOf(now));
  const second = (serverMetrics: RunSecond['serverMetrics']): RunSecond => ({
    second: 0, clientIndex: 0, phase: 'measure', requests: 10, scheduled: 10, bytes: 100, notSent: {}, inFlight: 0, errors: {}, statusClasses: { '2xx': 10 },
    p50Us: 1, p90Us: 1, p99Us: 1, maxUs: 1, histogram: null, clientMetrics: { at: 1000, durationMs: 1000 }, serverMetrics,
  }) as RunSecond;
  const context = { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 0 };
  assert.deepEqual(chartPoint(second(before), context), chartPoint(second(now), context));
  assert.deepEqual(chartPoint(second(now), context).server?.coreCpu, shares, 'the per-core chart draws the shares the agent sent');
});

test("the verdict's busiest-core evidence reads an older row and a row stored now alike, to its tenth of a percent", () => {
  // A 64-core host: core 17 saturated by the server, the others at 4.7 % (median).
  const shares = Array.from({ length: 64 }, (_, core) => (core === 17 ? 0.987 : core % 2 === 0 ? 0.047 : 0.052 - (core % 4 === 1 ? 0.005 : 0)));
  const secondOf = (server: Record<string, number | string>): BottleneckSecond => ({
    requests: 300, p50Us: 2000, notSent: { 'pool-full': 0 }, errors: { timeout: 0 },
    clientMetrics: { cpu: 0.2, agentCpu: 0.2, cores: 2, loadThreads: 1, agentCoresBusy: 0.3, eventLoopLagMs: 3, openSockets: 50, timeWait: 0, portErrors: 0, portRangeSize: 28232, durationMs: 1000 },
    serverMetrics: { cpu: 0.06, busiestCoreCpu: 0.987, processCpu: 1, cores: 64, listenOverflows: 0, listenDrops: 0, ...server },
  });
  const judge = (server: Record<string, number | string>) => judgeBottleneck(Array.from({ length: 6 }, () => secondOf(server)), 1000);
  const now = judge({ coreBusy: encodeCoreBusy(shares) });
  const before = judge(olderRow(shares));
  const oneCore = now?.evidence.find((evidence) => evidence.kind === 'one-core');
  assert.ok(oneCore, JSON.stringify(now?.evidence));
  assert.match(oneCore.message, /one core of 64 did the work: saturated in 6 s while the other 63 stayed at a median 4\.7 % busy/);
  assert.deepEqual(now, before);
});
