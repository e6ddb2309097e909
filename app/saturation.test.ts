// Tests of the client-bottleneck verdict: each condition, its persistence rule, the achieved rate.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClientMetrics } from './agent-protocol.ts';
import { judgeSaturation, saturationInSecond, type SecondForSaturation } from './saturation.ts';

const calm: ClientMetrics = { cpu: 0.3, agentCpu: 0.5, cores: 2, eventLoopLagMs: 2, openSockets: 50, timeWait: 10, backlog: 0, sent: 1000, portErrors: 0, portRangeSize: 28232 };
const second = (client: Partial<ClientMetrics>, requests = 1000): SecondForSaturation => ({ requests, durationMs: 1000, client: { ...calm, ...client } });

describe('client saturation', () => {
  test('a calm client is not saturated', () => {
    assert.deepEqual(judgeSaturation([second({}), second({}), second({})], 1000), []);
  });

  test('CPU over 80 % in two seconds or more is reported; a single spike is not', () => {
    assert.deepEqual(judgeSaturation([second({ cpu: 0.95 }), second({}), second({})], null), []);
    const findings = judgeSaturation([second({ cpu: 0.95 }), second({ cpu: 0.85 }), second({})], null);
    assert.deepEqual(findings.map((finding) => finding.kind), ['client-cpu']);
    assert.match(findings[0]!.message, /above 80 % \(up to 95 %\) in 2 s/);
  });

  test('event-loop lag', () => {
    const findings = judgeSaturation([second({ eventLoopLagMs: 120 }), second({ eventLoopLagMs: 80 })], null);
    assert.deepEqual(findings.map((finding) => finding.kind), ['event-loop-lag']);
  });

  test('achieved rate under 95 % of the target', () => {
    const findings = judgeSaturation([second({}, 900), second({}, 900)], 1000);
    assert.deepEqual(findings.map((finding) => finding.kind), ['below-target']);
    assert.match(findings[0]!.message, /achieved 900 of the 1000 requests\/s target \(90 %\)/);
    assert.deepEqual(judgeSaturation([second({}, 960), second({}, 960)], 1000), []);
  });

  test('ports: EADDRNOTAVAIL errors, or the range nearly used up', () => {
    assert.deepEqual(saturationInSecond(second({ portErrors: 3 })), ['ports-exhausted']);
    assert.deepEqual(saturationInSecond(second({ openSockets: 100, timeWait: 27_000 })), ['ports-exhausted']);
    const findings = judgeSaturation([second({ portErrors: 2 })], null);
    assert.match(findings[0]!.message, /no free local port for 2 connection attempts/);
  });
});
