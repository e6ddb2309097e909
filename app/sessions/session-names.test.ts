// Default session names, built in one place: a run's (the Run page's proposal and a session started
// without a name say the same) and a plan entry's, which names what tells it from the plan's other
// entries of one template, so no two of a plan's sessions share a name.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LoadProfile } from '../runs/load-profile.ts';
import { planSessionName, runSessionName, targetDistinction } from './session-names.ts';

describe('runSessionName', () => {
  test('the target as given (a default port is not added), the path and the steps', () => {
    const profile = LoadProfile.parse({ target: 'http://10.0.0.2/', request: { path: '/hello' }, load: { model: 'closed', connections: 10, durationS: 10 }, sweep: [10, 100] });
    assert.equal(runSessionName(profile), 'http://10.0.0.2/hello — c=10, 10 s / c=100, 10 s');
  });
});

describe('planSessionName', () => {
  const springs = [
    { templateId: 'spring-boot', variant: 'sync', knobs: { container: 'tomcat', language: 'java' } },
    { templateId: 'spring-boot', variant: 'sync', knobs: { container: 'jetty', language: 'java' } },
    { templateId: 'spring-boot', variant: 'sync', knobs: { container: 'jetty', language: 'kotlin' } },
    { templateId: 'node', variant: 'async', knobs: { workers: 2 } },
  ];

  test('entries of one template differing only by knobs get names that say those knobs, and only those', () => {
    const names = springs.map((_, index) => planSessionName({ name: 'JVM', targets: springs }, index, index < 3 ? 'Spring Boot · sync' : 'Node.js · async'));
    assert.deepEqual(names, [
      'JVM — Spring Boot · sync · container tomcat, language java',
      'JVM — Spring Boot · sync · container jetty, language java',
      'JVM — Spring Boot · sync · container jetty, language kotlin',
      'JVM — Node.js · async',
    ]);
    assert.equal(new Set(names).size, names.length);
  });

  test('a knob one entry leaves at its default reads "defaults"; a port alone tells two entries apart', () => {
    const targets = [
      { templateId: 'node', variant: 'async', knobs: {} },
      { templateId: 'node', variant: 'async', knobs: { workers: 4 } },
    ];
    assert.equal(targetDistinction(targets, 0), 'defaults');
    assert.equal(targetDistinction(targets, 1), 'workers 4');
    const ports = [
      { templateId: 'node', variant: 'async', knobs: { workers: 4 }, port: 8080 },
      { templateId: 'node', variant: 'sync', knobs: { workers: 4 }, port: 8080 },
      { templateId: 'node', variant: 'async', knobs: { workers: 4 }, port: 8081 },
    ];
    assert.deepEqual(ports.map((_, index) => targetDistinction(ports, index)), ['port 8080', null, 'port 8081'], 'the variant, already in the label, is not repeated');
  });

  test('which repeat, and never longer than a session name may be', () => {
    assert.equal(planSessionName({ name: 'seed', repeats: 5 }, 0, 'node', 3), 'seed — node (run 3 of 5)');
    const long = planSessionName({ name: 'x'.repeat(200), repeats: 5, targets: springs }, 0, 'node', 3);
    assert.equal(long.length, 200);
    assert.match(long, / \(run 3 of 5\)$/);
    assert.equal(planSessionName({ name: 'x'.repeat(200) }, 0, 'node').length, 200);
  });
});
