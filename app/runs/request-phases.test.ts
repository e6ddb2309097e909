// The request phases add up exactly: threads' or clients' intervals merged equal one histogram fed
// every value, a run's summary gives ab's rows (connect, waiting, processing, total), and seconds
// of an older agent (no phases) neither break nor fake them.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLatencyHistogram, decodeHistogram as decode, encodeHistogram, latencyStats, recordLatencyUs } from '../common/hdr.ts';
import { seededRandom } from '../sessions/compare-stats.ts';
import type { RequestPhases } from './agent-protocol.ts';
import { mergeClientSeconds } from './merge-seconds.ts';
import { mergePhases, phaseStatsOf } from './request-phases.ts';
import type { RunSecond } from './run-second.ts';
import { summarizeRun, summaryRulesOf } from './summarize-run.ts';

const random = seededRandom(2727);

function encoded(values: readonly number[]): string | null {
  if (values.length === 0) return null;
  const histogram = createLatencyHistogram();
  for (const us of values) recordLatencyUs(histogram, us);
  return encodeHistogram(histogram);
}

/** Requests of one interval: each with its connect (0: reused), waiting and total. */
interface Answer {
  connectUs: number;
  waitingUs: number;
  totalUs: number;
}

function answers(count: number, perRequest: boolean): Answer[] {
  return Array.from({ length: count }, () => {
    const connectUs = perRequest || random() < 0.01 ? Math.round(50 + 5000 * random() ** 3) : 0;
    const waitingUs = Math.round(100 + 900 * random());
    return { connectUs, waitingUs, totalUs: connectUs + waitingUs + Math.round(20 * random()) };
  });
}

function phasesOf(list: readonly Answer[]): RequestPhases {
  return {
    connect: encoded(list.filter((answer) => answer.connectUs > 0).map((answer) => answer.connectUs)),
    waiting: encoded(list.map((answer) => answer.waitingUs)),
    processing: encoded(list.map((answer) => answer.totalUs - answer.connectUs)),
    withConnect: list.filter((answer) => answer.connectUs > 0).length,
  };
}

function second(index: number, clientIndex: number, list: readonly Answer[], withPhases = true): RunSecond {
  const histogram = encoded(list.map((answer) => answer.totalUs));
  return {
    second: index,
    clientIndex,
    phase: 'measure',
    scheduled: list.length,
    notSent: {},
    inFlight: 0,
    requests: list.length,
    bytes: list.length * 100,
    errors: {},
    statusClasses: { '2xx': list.length },
    p50Us: null,
    p90Us: null,
    p99Us: null,
    maxUs: null,
    histogram,
    phases: withPhases ? phasesOf(list) : null,
    clientMetrics: { durationMs: 1000, at: 1000 * (index + 1) },
    serverMetrics: null,
  };
}

function statsOf(values: readonly number[]) {
  const histogram = createLatencyHistogram();
  for (const us of values) recordLatencyUs(histogram, us);
  return phaseStatsOf(histogram);
}

describe('request phases', () => {
  test('merged intervals equal one histogram fed every value; counts added', () => {
    const parts = Array.from({ length: 4 }, () => answers(500 + Math.floor(random() * 500), random() < 0.5));
    const merged = mergePhases(parts.map(phasesOf));
    const direct = phasesOf(parts.flat());
    for (const phase of ['connect', 'waiting', 'processing'] as const) {
      assert.deepEqual(latencyStats(decode(merged[phase]!)), latencyStats(decode(direct[phase]!)), phase);
    }
    assert.equal(merged.withConnect, direct.withConnect);
    assert.deepEqual(mergePhases([null, undefined, phasesOf(parts[0]!)]), phasesOf(parts[0]!), 'an older part adds nothing');
    assert.deepEqual(mergePhases(parts.map(phasesOf), { histograms: false }), { connect: null, waiting: null, processing: null, withConnect: direct.withConnect });
  });

  test('several clients of one second: the merged second carries the phases of all of them', () => {
    const a = answers(300, true);
    const b = answers(200, false);
    const merged = mergeClientSeconds([second(2, 0, a), second(2, 1, b)]);
    assert.equal(merged.phases?.withConnect, phasesOf([...a, ...b]).withConnect);
    assert.deepEqual(latencyStats(decode(merged.phases!.waiting!)), latencyStats(decode(phasesOf([...a, ...b]).waiting!)));
    const lean = mergeClientSeconds([second(2, 0, a), second(2, 1, b)], { histogram: false });
    assert.deepEqual(lean.phases, { connect: null, waiting: null, processing: null, withConnect: merged.phases!.withConnect });
    assert.equal(mergeClientSeconds([second(2, 0, a, false), second(2, 1, b, false)]).phases, null, 'no client measured them: none');
  });

  test('a run summary gives ab’s rows: connect, waiting, processing, total, and how many answers paid their connect', () => {
    const rules = summaryRulesOf({}, { load: { model: 'closed', connections: 4, durationS: 3 } });
    const seconds = [0, 1, 2].flatMap((index) => [second(index, 0, answers(400, true)), second(index, 1, answers(300, true))]);
    const summary = summarizeRun(seconds, rules).summary!;
    const phases = summary.phases!;
    assert.equal(phases.answered, summary.requests);
    assert.equal(phases.withConnect, summary.requests, 'every request opened its own connection');
    assert.equal(phases.connect.count, summary.requests);
    assert.equal(phases.total.p50Us, summary.p50Us, 'the total row is the headline');
    assert.equal(phases.total.maxUs, summary.maxUs);
    assert.ok(phases.total.meanUs! >= phases.connect.meanUs! && phases.total.meanUs! >= phases.processing.meanUs!);
  });

  test('seconds of an older agent: no phases to show; mixed with newer ones, the newer ones’ phases', () => {
    const rules = summaryRulesOf({}, { load: { model: 'closed', connections: 4, durationS: 2 } });
    assert.equal(summarizeRun([second(0, 0, answers(100, false), false)], rules).summary!.phases, null);
    const newer = answers(100, false);
    const phases = summarizeRun([second(0, 0, answers(100, false), false), second(1, 0, newer)], rules).summary!.phases!;
    assert.deepEqual(phases.waiting, statsOf(newer.map((answer) => answer.waitingUs)));
  });
});
