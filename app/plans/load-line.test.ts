// A load stage's line names the step its figures are of when the run has several.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeLoadRun } from './load-line.ts';
import type { LiveRun } from '../runs/runs.ts';

type Step = LiveRun['steps'][number];
const step = (label: string, rps: number | null, status: Step['status'] = 'completed') => ({ label, status, summary: rps === null ? null : { requestsPerSecond: rps, p99Us: 5_333_000 } }) as unknown as Step;

test('a sweep: the figures are said to be the last step’s, with its label and status', () => {
  assert.equal(describeLoadRun({ status: 'completed', currentStep: null, steps: [step('500 req/s', 500), step('4000 req/s', 2900)] }), 'completed — last step 4000 req/s: 2900 req/s, p99 5333.0 ms');
  assert.equal(describeLoadRun({ status: 'running', currentStep: 1, steps: [step('c=10', 900), step('c=100', null, 'running')] }), 'running, step 2 of 2 — last step c=10: 900 req/s, p99 5333.0 ms');
  assert.equal(describeLoadRun({ status: 'cancelled', currentStep: null, steps: [step('c=10', 900), step('c=100', 400, 'stopped')] }), 'cancelled — last step c=100 (stopped): 400 req/s, p99 5333.0 ms');
});

test('one step: its figures, as before; nothing measured: the status alone', () => {
  assert.equal(describeLoadRun({ status: 'completed', currentStep: null, steps: [step('c=10', 900)] }), 'completed — 900 req/s, p99 5333.0 ms');
  assert.equal(describeLoadRun({ status: 'running', currentStep: 0, steps: [step('c=10', null, 'running')] }), 'running');
});
