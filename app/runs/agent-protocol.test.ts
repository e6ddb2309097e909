// Tests of the agent's line protocol: lines round-trip, foreign or broken lines are reported, the
// splitter handles chunks cut anywhere.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeLine, LineSplitter, noPhases, parseAgentCommand, parseAgentLine, parseEngineLine, type AgentLine } from './agent-protocol.ts';

const sample: AgentLine = {
  type: 'sample',
  second: 3,
  at: 1_700_000_000_000,
  phase: 'measure',
  durationMs: 1000,
  scheduled: 1203,
  requests: 1200,
  bytes: 120_000,
  status: { '2xx': 1199, '5xx': 1 },
  errors: { timeout: 1, refused: 0, reset: 0, closed: 1, other: 0 },
  notSent: { 'pool-full': 0, 'step-ended': 0 },
  inFlight: 5,
  histogram: 'HISTFAAAAB14nJNpmSzMwMDAxQABzFCaEUzOmbSpoHYWAA==',
  p50Us: 800,
  p90Us: 1200,
  p99Us: 4000,
  maxUs: 9000,
  phases: { connect: null, waiting: 'HISTFAAAAB14nJNpmSzMwMDAxQABzFCaEUzOmbSpoHYWAA==', processing: 'HISTFAAAAB14nJNpmSzMwMDAxQABzFCaEUzOmbSpoHYWAA==', withConnect: 0 },
  client: { cpu: 0.4, agentCpu: 0.7, cores: 2, loadThreads: 2, agentCoresBusy: 0.5, eventLoopLagMs: 3, openSockets: 10, timeWait: 0, backlog: 0, sent: 1200, portErrors: 0, newConnections: 0, connectUsMax: null, portRangeSize: 28232 },
};

describe('agent line protocol', () => {
  test('a sample line round-trips', () => {
    const text = encodeLine(sample);
    assert.ok(text.endsWith('\n'));
    assert.deepEqual(parseAgentLine(text.trim()), { ok: true, value: sample });
  });

  test('non-JSON, unknown types and missing fields are errors that quote the line', () => {
    const notJson = parseAgentLine('Segmentation fault');
    assert.equal(notJson.ok, false);
    assert.match(!notJson.ok ? notJson.error : '', /not JSON: Segmentation fault/);
    const unknown = parseAgentLine('{"type":"mystery"}');
    assert.equal(unknown.ok, false);
    const missing = parseAgentLine(JSON.stringify({ ...sample, requests: undefined }));
    assert.match(!missing.ok ? missing.error : '', /requests/);
    const negative = parseAgentLine(JSON.stringify({ ...sample, requests: -1 }));
    assert.equal(negative.ok, false);
  });

  test('commands: start carries a validated config', () => {
    const start = parseAgentCommand(
      JSON.stringify({
        type: 'start',
        version: 1,
        config: {
          role: 'load',
          target: { protocol: 'http', hostname: '127.0.0.1', port: 8080 },
          request: { path: '/hello' },
          load: { model: 'closed', connections: 2, durationS: 1 },
          warmupS: 0,
          capS: 10,
        },
      }),
    );
    assert.equal(start.ok, true);
    if (start.ok && start.value.type === 'start' && start.value.config.role === 'load') {
      assert.equal(start.value.config.request.method, 'GET');
    }
    assert.equal(parseAgentCommand('{"type":"hb"}').ok, true);
    const bad = parseAgentCommand(JSON.stringify({ type: 'start', version: 1, config: { role: 'load', load: { model: 'closed', connections: 0 } } }));
    assert.equal(bad.ok, false);
  });

  test('the splitter joins lines cut across chunks and keeps the tail', () => {
    const splitter = new LineSplitter();
    assert.deepEqual(splitter.push('{"a":1}\n{"b"'), ['{"a":1}']);
    assert.deepEqual(splitter.push(':2}\n\n{"c":'), ['{"b":2}']);
    assert.deepEqual(splitter.push('3}'), []);
    assert.deepEqual(splitter.flush(), ['{"c":3}']);
  });
});

describe('clock role and coordinated start', () => {
  test('ping, pong and the clock role round-trip; a pong without its time is refused', () => {
    const start = { type: 'start', version: 3, config: { role: 'clock', capS: 60 } } as const;
    assert.deepEqual(parseAgentCommand(encodeLine(start).trim()), { ok: true, value: start });
    assert.deepEqual(parseAgentCommand('{"type":"ping","id":7}'), { ok: true, value: { type: 'ping', id: 7 } });
    const pong: AgentLine = { type: 'pong', id: 7, hostMs: 1_700_000_000_123.456 };
    assert.deepEqual(parseAgentLine(encodeLine(pong).trim()), { ok: true, value: pong });
    assert.equal(parseAgentLine('{"type":"pong","id":7}').ok, false);
  });

  test('startAtMs is an optional epoch time of the load config', () => {
    const load = {
      role: 'load',
      target: { protocol: 'http', hostname: '127.0.0.1', port: 80 },
      request: { method: 'GET', path: '/', headers: {}, timeoutMs: 1000 },
      load: { model: 'closed', connections: 1, pipelining: 1, durationS: 1 },
      warmupS: 0,
      capS: 5,
    };
    const parse = (config: object) => parseAgentCommand(JSON.stringify({ type: 'start', version: 3, config }));
    assert.equal(parse(load).ok, true);
    const timed = parse({ ...load, startAtMs: 1_700_000_001_500.25 });
    assert.ok(timed.ok && timed.value.type === 'start' && timed.value.config.role === 'load' && timed.value.config.startAtMs === 1_700_000_001_500.25);
    assert.equal(parse({ ...load, startAtMs: -5 }).ok, false);
  });

  test('a sample or engine line without phases (an older agent or engine) reads as nothing measured', () => {
    const { phases: _phases, ...older } = sample as Extract<AgentLine, { type: 'sample' }>;
    const parsed = parseAgentLine(JSON.stringify(older));
    assert.ok(parsed.ok && parsed.value.type === 'sample');
    assert.deepEqual(parsed.value.phases, noPhases());
    const { type: _type, client: _client, ...books } = older;
    const engine = { threads: 1, cpuS: 0.5, lagMs: 1, backlog: 0, sent: 1200, portErrors: 0, newConnections: 3, connectUsMax: 90 };
    const interval = parseEngineLine(JSON.stringify({ type: 'interval', ...books, engine }));
    assert.ok(interval.ok && interval.value.type === 'interval');
    assert.deepEqual(interval.value.phases, noPhases());
    const withPhases = parseEngineLine(JSON.stringify({ type: 'interval', ...books, engine, phases: { connect: 'x', waiting: null, processing: null, withConnect: 3 } }));
    assert.ok(withPhases.ok && withPhases.value.type === 'interval');
    assert.deepEqual(withPhases.value.phases, { connect: 'x', waiting: null, processing: null, withConnect: 3 });
    assert.equal(parseEngineLine(JSON.stringify({ type: 'interval', ...books, engine, phases: { withConnect: -1 } })).ok, false);
  });
});
