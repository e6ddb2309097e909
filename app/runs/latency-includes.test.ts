// What a latency includes, in words: the connect with a connection per request, not with keep-alive
// (connects shown apart), the share when mixed, the open model's wait, and older runs said as such.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeLatencyIncludes, describePhasesBrief, modelOf, phasesText } from './latency-includes.ts';
import type { LatencyPhases, PhaseStats } from './run-summary-schema.ts';

const stats = (count: number, p50Us: number): PhaseStats => ({ count, minUs: p50Us / 2, meanUs: p50Us, stdDevUs: 10, p50Us, p99Us: p50Us * 2, maxUs: p50Us * 3 });

function phases(withConnect: number, answered = 1000, connects = withConnect || 10): LatencyPhases {
  return { connect: stats(connects, 18_000), waiting: stats(answered, 400), processing: stats(answered, 500), total: stats(answered, 18_500), answered, withConnect };
}

test('a connection per request: the latency includes the connect, as ab’s total', () => {
  const text = describeLatencyIncludes(phases(1000), 'closed');
  assert.match(text, /Every request opened its own connection: latency runs from the start of its connect, so it includes the connect \(connect p50 18\.0 ms/);
});

test('keep-alive: the connects are not in the latency, shown apart', () => {
  assert.match(describeLatencyIncludes(phases(0), 'closed'), /^Keep-alive: latency runs from each request’s write on an open connection; the 10 connects \(connect p50 18\.0 ms, max 54\.0 ms\) are not in it, shown apart\.$/);
  assert.match(describeLatencyIncludes(phases(0), 'open'), /intended send time \(a wait for a free connection included\)/);
  assert.match(describeLatencyIncludes(phases(0, 1000, 0), 'closed'), /on an open connection; no connection was opened in the measured window\.$/);
});

test('mixed: the share that paid a connect; older runs: not measured', () => {
  assert.match(describeLatencyIncludes(phases(10), 'closed'), /^10 of 1,000 answers \(1\.0 %\) opened their own connection/);
  assert.match(describeLatencyIncludes(null, 'closed'), /not measured apart \(recorded before/);
  assert.match(describePhasesBrief(phases(1000), 'closed'), /^connect p50 18\.0 ms · waiting p50 0\.40 ms · processing p50 0\.50 ms · total p50 18\.5 ms\. Every request/);
});

test('ab’s table as text, and the model of a stored step', () => {
  const lines = phasesText(phases(1000));
  assert.equal(lines.length, 5);
  assert.match(lines[1]!, /^Connect:\s+1,000\s+9\.00\s+18\.00\s+0\.01\s+18\.00\s+36\.00\s+54\.00$/);
  assert.match(lines[4]!, /^Total:/);
  assert.equal(modelOf({ load: { model: 'open' } }), 'open');
  assert.equal(modelOf({ model: 'closed' }), 'closed');
  assert.equal(modelOf(null), null);
});
