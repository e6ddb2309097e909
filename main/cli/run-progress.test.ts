// Tests of `benchlab run`'s progress: in a log, one plain line per stage start and end and one when
// a load's first measured second arrives (never a line per second); on a terminal, one live line
// redrawn in place with the stage, elapsed of the estimate and the current second's figures, and
// ended stages kept above it. Also the Ctrl-C watcher: the first signal and every later one.

import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import type { PlanStage, PlanState } from '../../app/plans/plan.ts';
import type { LivePoint } from '../../app/runs/runs.ts';
import { watchInterrupts } from './run-interrupts.ts';
import { RunProgress } from './run-progress.ts';

function sink(columns?: number) {
  const chunks: string[] = [];
  return { chunks, stream: { columns, write: (chunk: string) => chunks.push(chunk) > 0 } as unknown as NodeJS.WritableStream & { columns?: number } };
}

const START = Date.parse('2025-05-01T10:00:00.000Z');

function stage(id: string, kind: PlanStage['kind'], label: string): PlanStage {
  return { id, kind, label, status: 'pending', detail: null, target: 0, round: null, sessionId: null, estimateS: 10, startedAt: null, endedAt: null };
}

/** A stage running since START. */
function runningStage(id: string, kind: PlanStage['kind'], label: string): PlanStage {
  return { ...stage(id, kind, label), status: 'running', startedAt: new Date(START).toISOString() };
}

/** Progress written to a log (no live line, no timer of its own), on a clock the test moves. */
function loggedProgress() {
  const clock = { now: START };
  const out = sink();
  return { clock, out, progress: new RunProgress({ stream: out.stream, live: false, now: () => clock.now, tickMs: 0 }) };
}

function planWith(stages: PlanStage[]): PlanState {
  return { id: 1, name: 'p', status: 'running', stages, sessionIds: [], message: null, startedAt: new Date(START).toISOString(), endedAt: null, estimateS: 90 };
}

function point(rps: number, p99Us: number, warmup = false): LivePoint {
  return { sessionId: 5, step: 0, t: 1, at: 0, warmup, rps, errorsPerS: 0, p50Us: 100, p90Us: 200, p99Us, clientCpu: 0, eventLoopLagMs: 0, serverCpu: null, serverRssBytes: null, serverMemUsedBytes: null, rxBytesPerS: null, txBytesPerS: null };
}

/** Walks a two-stage plan: deploy runs and ends, load runs with warm-up then measured seconds. */
function drive(progress: RunProgress): void {
  const stages = [stage('deploy-0', 'deploy', 'Deploy node · async'), stage('load-0', 'load', 'Load node · async')];
  const state = planWith(stages);
  stages[0]!.status = 'running';
  stages[0]!.startedAt = new Date(START).toISOString();
  progress.plan(structuredClone(state));
  stages[0]!.status = 'done';
  stages[0]!.detail = 'http://10.0.0.2:8080';
  stages[0]!.endedAt = new Date(START + 4000).toISOString();
  stages[1]!.status = 'running';
  progress.plan(structuredClone(state));
  progress.points([point(900, 1500, true)]);
  progress.points([point(40120, 2100)]);
  progress.points([point(41000, 2200)]);
  stages[1]!.status = 'cancelled';
  stages[1]!.detail = 'stopped; the seconds measured are kept';
  progress.plan(structuredClone(state));
  progress.finish();
}

describe('RunProgress', () => {
  test('a preset that did not all take effect ends as a warning with the value in effect, not as done', () => {
    const out = sink();
    const progress = new RunProgress({ stream: out.stream, live: false, now: () => START + 1000 });
    const preset = stage('preset-server', 'preset', 'Apply preset "wrk seed" on lab-server');
    const state = planWith([preset]);
    preset.status = 'running';
    preset.startedAt = new Date(START).toISOString();
    progress.plan(structuredClone(state));
    preset.status = 'done';
    preset.endedAt = new Date(START).toISOString();
    preset.detail = 'applied (4 changes)';
    preset.warning = '1 of 4 keys did not take effect: root hard nofile: 20000 in effect, asked 100000 (hard limit 20000 caps it)';
    progress.plan(structuredClone(state));
    progress.finish();
    const ended = out.chunks.join('').split('\n')[1]!;
    assert.equal(ended, '[1/1] Apply preset "wrk seed" on lab-server — applied (4 changes), WARNING: 1 of 4 keys did not take effect: root hard nofile: 20000 in effect, asked 100000 (hard limit 20000 caps it)');
    assert.doesNotMatch(ended, /done in/);
  });

  test('in a log: a line per stage start and end, and one when the load runs', () => {
    const out = sink();
    drive(new RunProgress({ stream: out.stream, live: false, now: () => START + 12_000 }));
    assert.equal(
      out.chunks.join(''),
      [
        '[1/2] Deploy node · async',
        '[1/2] Deploy node · async — done in 4 s: http://10.0.0.2:8080',
        '[2/2] Load node · async',
        '[2/2] load running: 40,120 req/s, p99 2.10 ms',
        '[2/2] Load node · async — cancelled: stopped; the seconds measured are kept',
        '',
      ].join('\n'),
    );
  });

  test('on a terminal: one live line redrawn in place, ended stages kept above, nothing left at the end', () => {
    const out = sink();
    drive(new RunProgress({ stream: out.stream, live: true, now: () => START + 12_000 }));
    const text = out.chunks.join('');
    const redraws = text.split('\r\u001b[2K').filter(Boolean);
    assert.deepEqual(redraws, [
      '[1/2] Deploy node · async · 0:12 of ~1:30',
      '[1/2] Deploy node · async — done in 4 s: http://10.0.0.2:8080\n',
      '[2/2] Load node · async · 0:12 of ~1:30',
      '[2/2] Load node · async · 0:12 of ~1:30 · warm-up: 900 req/s, p99 1.50 ms',
      '[2/2] Load node · async · 0:12 of ~1:30 · 40,120 req/s, p99 2.10 ms',
      '[2/2] Load node · async · 0:12 of ~1:30 · 41,000 req/s, p99 2.20 ms',
      '[2/2] Load node · async — cancelled: stopped; the seconds measured are kept\n',
    ]);
    assert.ok(text.endsWith('\n'), 'the terminal is left on a fresh line');
  });

  test('a live line wider than the terminal is cut, so \\r redraws all of it', () => {
    const out = sink(20);
    const progress = new RunProgress({ stream: out.stream, live: true, now: () => START });
    const stages = [stage('deploy-0', 'deploy', 'Deploy a template with a long name')];
    stages[0]!.status = 'running';
    progress.plan(planWith(stages));
    assert.deepEqual(out.chunks, ['\r\u001b[2K[1/1] Deploy a tem…']);
  });
});

describe('RunProgress in a log: never silent for long', () => {
  test('a long load says its stage, req/s, p99 and errors at least every 10 s, not every second', () => {
    const { clock, out, progress } = loggedProgress();
    progress.plan(planWith([runningStage('load-0', 'load', 'Load node · async')]));
    for (let second = 1; second <= 45; second++) {
      clock.now = START + second * 1000;
      progress.points([{ ...point(1000, 2100), errorsPerS: second === 20 ? 5 : 0 }]);
    }
    const lines = out.chunks.join('').trimEnd().split('\n');
    const figures = lines.filter((line) => line.includes(' in · '));
    assert.deepEqual(figures, [
      '[1/1] Load node · async · 0:11 in · 1,000 req/s, p99 2.10 ms · errors so far 0 (0.00 %)',
      '[1/1] Load node · async · 0:21 in · 1,000 req/s, p99 2.10 ms · errors so far 5 (0.02 %)',
      '[1/1] Load node · async · 0:31 in · 1,000 req/s, p99 2.10 ms · errors so far 5 (0.02 %)',
      '[1/1] Load node · async · 0:41 in · 1,000 req/s, p99 2.10 ms · errors so far 5 (0.01 %)',
    ]);
    progress.finish();
  });

  test('a stage with no news (a long build, a load before its first second) still gets a line every 10 s', () => {
    const { clock, out, progress } = loggedProgress();
    progress.plan(planWith([{ ...runningStage('deploy-0', 'deploy', 'Deploy tomcat · sync'), detail: 'Build on this machine: mvn package' }]));
    for (const afterMs of [9_000, 10_000, 15_000, 20_000]) {
      clock.now = START + afterMs;
      progress.tick();
    }
    progress.finish();
    assert.equal(
      out.chunks.join(''),
      [
        '[1/1] Deploy tomcat · sync',
        '[1/1] Deploy tomcat · sync · 0:10 in · Build on this machine: mvn package',
        '[1/1] Deploy tomcat · sync · 0:20 in · Build on this machine: mvn package',
        '',
      ].join('\n'),
    );
  });

  test('a deploy says whether it built its artifact or reused it', () => {
    const ended = (details: string[]) => {
      const { out, progress } = loggedProgress();
      const stages = [runningStage('deploy-0', 'deploy', 'Deploy tomcat · sync')];
      for (const detail of details) {
        stages[0]!.detail = detail;
        progress.plan(structuredClone(planWith(stages)));
      }
      stages[0]!.status = 'done';
      stages[0]!.endedAt = new Date(START + 3000).toISOString();
      stages[0]!.detail = 'http://10.0.0.2:8080';
      progress.plan(structuredClone(planWith(stages)));
      progress.finish();
      return out.chunks.join('').trimEnd().split('\n').at(-1);
    };
    assert.equal(ended(['Check the host and its runtimes', 'Build on this machine', 'Build on this machine: mvn package', 'Upload what changed']), '[1/1] Deploy tomcat · sync — done in 3 s: http://10.0.0.2:8080; built anew (mvn package)');
    assert.equal(ended(['Build on this machine', 'Build on this machine: mvn package: up to date (sources unchanged)']), '[1/1] Deploy tomcat · sync — done in 3 s: http://10.0.0.2:8080; build reused, sources unchanged (mvn package)');
    assert.equal(ended(['Build on this machine: nothing to build']), '[1/1] Deploy tomcat · sync — done in 3 s: http://10.0.0.2:8080; nothing to build');
  });
});

describe('watchInterrupts', () => {
  test('the first SIGINT or SIGTERM asks for a clean stop, any later one for now; unwatching removes the listeners', () => {
    const source = new EventEmitter();
    const calls: string[] = [];
    const unwatch = watchInterrupts({ first: (signal) => calls.push(`first ${signal}`), second: (signal) => calls.push(`second ${signal}`) }, source as never);
    source.emit('SIGTERM', 'SIGTERM');
    source.emit('SIGINT', 'SIGINT');
    source.emit('SIGINT', 'SIGINT');
    assert.deepEqual(calls, ['first SIGTERM', 'second SIGINT', 'second SIGINT']);
    unwatch();
    assert.equal(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM'), 0);
  });
});
