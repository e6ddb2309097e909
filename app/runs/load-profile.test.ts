// Tests of load profiles: the bad profiles of the issue are refused with messages naming the field,
// both models and their either/or fields, sweeps expand into steps with caps.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  connectionPerRequest,
  defaultOpenConnections,
  describeOpenCapacity,
  describeProfile,
  expandSteps,
  LoadProfile,
  parseTarget,
  profileFieldErrors,
  RequestSpec,
  requestUrl,
  sessionCapSeconds,
  targetRate,
  type LoadProfileInput,
} from './load-profile.ts';

const closed: LoadProfileInput = {
  target: 'http://10.231.0.3:8080',
  request: { path: '/hello' },
  load: { model: 'closed', connections: 10, durationS: 5 },
};

const withLoad = (load: Record<string, unknown>) => ({ ...closed, load }) as LoadProfileInput;

describe('load profiles', () => {
  test('a plain closed profile gets its defaults', () => {
    const profile = LoadProfile.parse(closed);
    assert.equal(profile.request.method, 'GET');
    assert.equal(profile.request.timeoutMs, 10_000);
    assert.deepEqual(profile.bucketsMs, [800, 1200]);
    assert.equal(profile.load.model === 'closed' && profile.load.pipelining, 1);
  });

  test('0 connections is refused, naming the field', () => {
    assert.deepEqual(profileFieldErrors(withLoad({ model: 'closed', connections: 0, durationS: 5 })), { 'load.connections': 'must be at least 1' });
  });

  test('a negative rate is refused', () => {
    assert.deepEqual(profileFieldErrors(withLoad({ model: 'open', rate: -5, durationS: 5 })), { 'load.rate': 'must be greater than 0' });
  });

  test('a path without a leading slash is refused', () => {
    assert.deepEqual(profileFieldErrors({ ...closed, request: { path: 'hello' } }), { 'request.path': 'must start with "/" (for example /hello)' });
  });

  test('targets: scheme, host and port are checked; a path belongs elsewhere', () => {
    assert.deepEqual(parseTarget('http://10.231.0.3:8080'), { protocol: 'http', hostname: '10.231.0.3', port: 8080 });
    assert.deepEqual(parseTarget('https://example.test/'), { protocol: 'https', hostname: 'example.test', port: 443 });
    assert.deepEqual(parseTarget('http://[::1]:81'), { protocol: 'http', hostname: '::1', port: 81 });
    assert.match(String(parseTarget('10.0.0.1:80')), /http:\/\/host:port/);
    assert.match(String(parseTarget('http://host:80/hello')), /path goes in the Path field/);
    assert.match(String(parseTarget('http://host:99999')), /between 1 and 65535/);
    assert.match(String(parseTarget('http://bad_host:80')), /^host /);
  });

  test('either a duration or a request count in the closed model, never both', () => {
    assert.match(profileFieldErrors(withLoad({ model: 'closed', connections: 10 }))['load.durationS'] ?? '', /either a duration or a number of requests/);
    assert.match(profileFieldErrors(withLoad({ model: 'closed', connections: 10, durationS: 5, requests: 100 }))['load.requests'] ?? '', /not both/);
    assert.match(profileFieldErrors(withLoad({ model: 'closed', connections: 100, requests: 10 }))['load.requests'] ?? '', /at least the number of connections/);
  });

  test('open model: a rate, or N requests over T seconds', () => {
    const rate = LoadProfile.parse(withLoad({ model: 'open', rate: 700, durationS: 60 }));
    assert.equal(targetRate(rate.load), 700);
    const gatling = LoadProfile.parse(withLoad({ model: 'open', requests: 120_000, durationS: 30 }));
    assert.equal(targetRate(gatling.load), 4000);
    assert.match(profileFieldErrors(withLoad({ model: 'open', durationS: 30 }))['load.rate'] ?? '', /either a rate/);
  });

  test('unknown fields and bad headers are refused', () => {
    assert.ok(profileFieldErrors({ ...closed, extra: 1 }).profile);
    assert.match(profileFieldErrors({ ...closed, request: { path: '/', headers: { 'X-A': 'a\r\nb' } } })['request.headers.X-A'] ?? '', /line breaks/);
  });

  test('a connection sweep expands into one step per value, with warm-up in the first cap', () => {
    const profile = LoadProfile.parse({ ...withLoad({ model: 'closed', connections: 10, durationS: 10 }), sweep: [10, 100, 1000], warmupS: 5, pauseS: 2 });
    const steps = expandSteps(profile);
    assert.deepEqual(
      steps.map((step) => step.label),
      ['c=10, 10 s', 'c=100, 10 s', 'c=1000, 10 s'],
    );
    assert.equal(steps[0]!.capS, 10 + 15 + 5);
    assert.equal(steps[1]!.capS, 10 + 15);
    assert.equal(sessionCapSeconds(profile), 30 + 25 + 25 + 4);
  });

  test('an open sweep of request counts (Gatling seed) keeps "over T s"', () => {
    const profile = LoadProfile.parse({ ...withLoad({ model: 'open', requests: 52_500, durationS: 30 }), sweep: [52_500, 60_000, 90_000, 120_000] });
    assert.deepEqual(
      expandSteps(profile).map((step) => targetRate(step.load)),
      [1750, 2000, 3000, 4000],
    );
  });

  test('sweep values are checked as the load they become', () => {
    const errors = profileFieldErrors({ ...withLoad({ model: 'closed', connections: 10, durationS: 10 }), sweep: [10, 2.5] });
    assert.deepEqual(errors, { 'sweep.1': 'must be a whole number' });
  });

  test('latency bands must ascend', () => {
    assert.equal(profileFieldErrors({ ...closed, bucketsMs: [1200, 800] }).bucketsMs, 'must be in ascending order');
  });

  test('a connection maximum that cannot carry the rate is said with the answer time it needs; none given is no cap', () => {
    const capped = LoadProfile.parse(withLoad({ model: 'open', rate: 700, durationS: 60, connections: 15 })).load;
    assert.match(describeOpenCapacity(capped) ?? '', /^15 connections carry 700 requests\/s only while each answer takes under 21 ms/);
    assert.equal(describeOpenCapacity(LoadProfile.parse(withLoad({ model: 'open', rate: 10, durationS: 60, connections: 15 })).load), null);
    assert.equal(describeOpenCapacity(LoadProfile.parse(withLoad({ model: 'open', rate: 700, durationS: 60 })).load), null);
    assert.equal(defaultOpenConnections(700, 10_000), 7000);
  });

  test('a profile in words names no fields, and the target and path meet with one slash', () => {
    const profile = LoadProfile.parse({ ...withLoad({ model: 'closed', connections: 10, durationS: 10 }), target: 'http://10.0.0.3:8080/', sweep: [10, 100], warmupS: 5, pauseS: 2 });
    assert.equal(profile.target, 'http://10.0.0.3:8080');
    const words = describeProfile(profile);
    assert.equal(words, 'GET http://10.0.0.3:8080/hello · closed model, 10 → 100 connections, 10 s each · warm-up 5 s · pause 2 s');
    assert.equal(requestUrl('http://h:80/', '/sleep?ms=5'), 'http://h:80/sleep?ms=5');
  });

  test('HTTP/1.0 as ab sends it: absent is 1.1, a plan file’s bare number reads as the version, anything else is refused', () => {
    const base = { path: '/hello' };
    assert.equal(RequestSpec.parse(base).httpVersion, undefined);
    assert.equal(RequestSpec.parse({ ...base, httpVersion: '1.0' }).httpVersion, '1.0');
    assert.equal(RequestSpec.parse({ ...base, httpVersion: 1 }).httpVersion, '1.0');
    assert.equal(RequestSpec.parse({ ...base, httpVersion: 1.1 }).httpVersion, '1.1');
    assert.deepEqual(profileFieldErrors({ ...closed, request: { ...base, httpVersion: '2' } }), { 'request.httpVersion': 'must be "1.1" or "1.0"' });
  });

  test('onTimeout: absent is close, wait is taken for the closed model and refused for the open one, naming the field', () => {
    assert.equal(LoadProfile.parse(closed).request.onTimeout, undefined);
    assert.equal(LoadProfile.parse({ ...closed, request: { path: '/hello', onTimeout: 'wait' } }).request.onTimeout, 'wait');
    const open = { ...closed, load: { model: 'open', rate: 100, durationS: 5 } } as LoadProfileInput;
    assert.equal(LoadProfile.parse({ ...open, request: { path: '/hello', onTimeout: 'close' } }).request.onTimeout, 'close');
    assert.deepEqual(Object.keys(profileFieldErrors({ ...open, request: { path: '/hello', onTimeout: 'wait' } })), ['request.onTimeout']);
    assert.deepEqual(profileFieldErrors({ ...closed, request: { path: '/hello', onTimeout: 'linger' } }), { 'request.onTimeout': 'must be "close" or "wait"' });
    // In words, its timeouts are late answers.
    const waiting = LoadProfile.parse({ ...closed, request: { path: '/hello', timeoutMs: 2000, onTimeout: 'wait' } });
    assert.match(describeProfile(waiting), / · an answer after 2000 ms is a timeout, its connection waits for it$/);
    assert.doesNotMatch(describeProfile(LoadProfile.parse(closed)), /timeout/);
  });

  test('a connection per request: HTTP/1.0, or a Connection: close header in any case; keep-alive otherwise', () => {
    assert.equal(connectionPerRequest({ headers: {}, httpVersion: '1.0' }), true);
    assert.equal(connectionPerRequest({ headers: { connection: 'Close' } }), true);
    assert.equal(connectionPerRequest({ headers: { Connection: 'keep-alive, close' } }), true);
    assert.equal(connectionPerRequest({ headers: { Connection: 'keep-alive' } }), false);
    assert.equal(connectionPerRequest({ headers: { 'X-Connection': 'close' } }), false);
    assert.equal(connectionPerRequest({ headers: {}, httpVersion: '1.1' }), false);
  });
});
