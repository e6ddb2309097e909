import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FACTS_MARKER, findNoise, HostFacts, parseFactsOutput, type HostReadings } from './host-facts.ts';
import { TRACKED_SYSCTLS } from './system-info.ts';

const section = (name: string, ...lines: string[]) => [`${FACTS_MARKER} ${name}`, ...lines].join('\n');

function statLine(pid: number, command: string, utime: number, stime: number): string {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
  return `${pid} (${command}) S 1 1 1 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 100 0 0`;
}

function output(options: { end?: boolean; listener?: boolean; swapOut?: number } = {}): string {
  const parts = [
    section('self', '4000'),
    section('machine-id', 'abc123'),
    section('boot-id', 'boot-1'),
    section('governor', 'powersave', 'powersave', 'performance'),
    section('boost', 'intel_pstate/no_turbo 0'),
    section('loadavg', '2.50 1.00 0.50 3/200 999'),
    section('clk-tck', '100'),
    ...(options.listener
      ? [
          section('listener-pid', '500'),
          section('listener-comm', 'node'),
          section('listener-limits', 'Max processes             15000                15000                processes', 'Max open files            12000                19000                files'),
        ]
      : []),
    section('sample-0 uptime', '100.00 150.00'),
    section('sample-0 vmstat', 'pswpin 10', 'pswpout 20'),
    section('sample-0 stat', statLine(1, 'init', 5, 5), statLine(42, 'cc1 (plus) x', 100, 0), statLine(4000, 'sh', 0, 0), statLine(500, 'node', 0, 0), statLine(77, 'gone', 1, 1)),
    section('sample-1 uptime', '102.00 154.00'),
    section('sample-1 vmstat', 'pswpin 10', `pswpout ${20 + (options.swapOut ?? 0)}`),
    // cc1 used 150 ticks in 2 s at 100 Hz: 75 % of a core; the shell and the listener are ours.
    section('sample-1 stat', statLine(1, 'init', 5, 6), statLine(42, 'cc1 (plus) x', 200, 50), statLine(4000, 'sh', 90, 90), statLine(500, 'node', 300, 0), statLine(88, 'new', 50, 0)),
  ];
  if (options.end !== false) parts.push(section('end'));
  return parts.join('\n') + '\n';
}

function facts(role: 'client' | 'server', readings: HostReadings | null, cores = 4, hostName = `h-${role}`): HostFacts {
  return HostFacts.parse({
    role,
    hostName,
    hostname: role,
    distro: 'Debian',
    kernel: '6.1.0',
    arch: 'x86_64',
    cpuModel: 'cpu',
    cpuCores: cores,
    memoryBytes: 1,
    limits: { nofile: { soft: '1024', hard: '4096' }, nproc: { soft: '100', hard: '100' } },
    sysctls: Object.fromEntries(TRACKED_SYSCTLS.map((key) => [key, '1'])),
    runtimes: { node: null, java: null, apache: null },
    takenAt: '2025-01-01T00:00:00.000Z',
    preset: { applied: [], pending: [] },
    readings,
  });
}

test('reads the facts: ids, governors, turbo, load, busy processes over the interval, swap, listener limits', () => {
  const readings = parseFactsOutput(output({ listener: true, swapOut: 3 }));
  assert.equal(readings.machineId, 'abc123');
  assert.equal(readings.bootId, 'boot-1');
  assert.deepEqual(readings.governors, ['performance', 'powersave']);
  assert.deepEqual(readings.boost, { on: true, source: 'intel_pstate/no_turbo' });
  assert.deepEqual(readings.loadAverage, [2.5, 1, 0.5]);
  // The script's own shell and the listening server are not "other" load; a process that came
  // or went between the samples has no interval; init's 1 tick over 2 s is below 1 %.
  assert.deepEqual(readings.busy, [{ pid: 42, command: 'cc1 (plus) x', cpuPercent: 75 }]);
  assert.deepEqual(readings.swap, { pagesIn: 0, pagesOut: 3, seconds: 2 });
  assert.deepEqual(readings.listener, { pid: 500, command: 'node', limits: { nofile: { soft: '12000', hard: '19000' }, nproc: { soft: '15000', hard: '15000' } } });
});

test('a host without cpufreq, turbo switch or listener reads as unknown, not as a value', () => {
  const text = output().replace(/powersave\nperformance\n|powersave\n/g, '').replace('intel_pstate/no_turbo 0', '');
  const readings = parseFactsOutput(text);
  assert.equal(readings.governors, null);
  assert.equal(readings.boost, null);
  assert.equal(readings.listener, null);
  assert.equal(findNoise([facts('client', readings)], null).some((finding) => finding.kind === 'governor' || finding.kind === 'turbo'), false);
});

test('a truncated facts output is refused', () => {
  assert.throws(() => parseFactsOutput(output({ end: false })), /incomplete/);
  assert.throws(() => parseFactsOutput('bash: sh: not found'), /did not run/);
});

test('findings: governor, turbo, load, busy process and swap on one host, each with its evidence', () => {
  const findings = findNoise([], facts('server', parseFactsOutput(output({ swapOut: 5 }))));
  assert.deepEqual(
    findings.map((finding) => [finding.kind, finding.host]),
    [
      ['governor', 'server'],
      ['turbo', 'server'],
      ['load', 'server'],
      ['busy-process', 'server'],
      ['swap', 'server'],
    ],
  );
  assert.match(findings[0]!.message, /powersave/);
  assert.equal(findings[0]!.evidence, 'scaling_governor: performance, powersave');
  assert.match(findings[3]!.evidence, /pid 42 cc1 \(plus\) x 75 %/);
  assert.equal(findings[4]!.evidence, 'pswpin +0, pswpout +5 over 2 s');
  assert.ok(findings.every((finding) => finding.hostName === 'h-server'));
});

test('several clients: each is checked and each finding names its client; clients on one kernel are named together', () => {
  const quiet: HostReadings = { machineId: null, bootId: null, governors: ['performance'], boost: null, loadAverage: [0, 0, 0], busy: [], swap: null, listener: null };
  const loaded = { ...quiet, loadAverage: [8, 8, 8] as [number, number, number] };
  const findings = findNoise([facts('client', quiet, 4, 'c1'), facts('client', loaded, 4, 'c2'), facts('client', { ...quiet, swap: { pagesIn: 2, pagesOut: 0, seconds: 1 } }, 4, 'c3')], null);
  assert.deepEqual(
    findings.map((finding) => [finding.kind, finding.host, finding.hostName]),
    [
      ['load', 'client', 'c2'],
      ['swap', 'client', 'c3'],
    ],
  );
  assert.match(findings[0]!.message, /client c2/);

  const shared = { ...quiet, bootId: 'k1' };
  const together = findNoise([facts('client', shared, 4, 'c1'), facts('client', { ...quiet, bootId: 'k2' }, 4, 'c2'), facts('client', shared, 4, 'c3')], null);
  assert.deepEqual(together.map((finding) => finding.kind), ['same-machine']);
  assert.match(together[0]!.message, /clients c1, c3 run on the same machine/);

  const withServer = findNoise([facts('client', { ...quiet, bootId: 'k2' }, 4, 'c1'), facts('client', shared, 4, 'c2')], facts('server', shared));
  assert.equal(withServer.length, 1);
  assert.match(withServer[0]!.message, /client \(c2\) and the server/);
});

test('a quiet host has no findings; load is judged against its cores', () => {
  const quiet: HostReadings = { machineId: 'a', bootId: 'b', governors: ['performance'], boost: { on: false, source: 'cpufreq/boost' }, loadAverage: [2.5, 1, 1], busy: [{ pid: 9, command: 'x', cpuPercent: 5 }], swap: { pagesIn: 0, pagesOut: 0, seconds: 1 }, listener: null };
  assert.deepEqual(findNoise([facts('client', quiet, 16)], null), []);
  assert.deepEqual(findNoise([facts('client', quiet, 4)], null).map((finding) => finding.kind), ['load']);
});

test('client and server on the same kernel are one machine; a shared machine id alone may be a clone', () => {
  const base: HostReadings = { machineId: 'm1', bootId: 'b1', governors: null, boost: null, loadAverage: null, busy: [], swap: null, listener: null };
  const same = findNoise([facts('client', base)], facts('server', base));
  assert.deepEqual(same.map((finding) => [finding.kind, finding.host]), [['same-machine', 'both']]);
  assert.match(same[0]!.message, /same machine/);
  assert.match(same[0]!.evidence, /boot id b1/);
  const clone = findNoise([facts('client', base)], facts('server', { ...base, bootId: 'b2' }));
  assert.match(clone[0]!.message, /cloned/);
  assert.deepEqual(findNoise([facts('client', base)], facts('server', { ...base, bootId: 'b2', machineId: 'm2' })), []);
});

test('a host whose facts could not be read is a finding, not silence', () => {
  const findings = findNoise([], null, [{ role: 'server', message: 'connection lost' }]);
  assert.deepEqual(findings, [{ kind: 'unavailable', host: 'server', message: "The server's facts could not be read: nothing is known about its noise.", evidence: 'connection lost' }]);
  const client = findNoise([], null, [{ role: 'client', hostName: 'c2', message: 'timed out' }]);
  assert.deepEqual(client, [{ kind: 'unavailable', host: 'client', hostName: 'c2', message: "The client c2's facts could not be read: nothing is known about its noise.", evidence: 'timed out' }]);
});
