// Tests of the per-core, per-task and TCP counter readers with real-shaped /proc text.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listenCounters, parseContextSwitches, parseHostScheduling, parseNetstat, parsePerCoreTimes, parseTaskStat, perCoreBusy, tcpRetransmits } from './proc-counters.ts';

const STAT_BEFORE = `cpu  300 0 100 1600 0 0 0 0 0 0
cpu0 100 0 0 100 0 0 0 0 0 0
cpu1 200 0 100 1500 0 0 0 0 0 0
intr 12345 0 0
ctxt 999
`;
// In 1 s: core 0 fully busy (100 user ticks), core 1 idle (100 idle ticks): 50 % machine-wide.
const STAT_AFTER = `cpu  400 0 100 1700 0 0 0 0 0 0
cpu0 200 0 0 100 0 0 0 0 0 0
cpu1 200 0 100 1600 0 0 0 0 0 0
intr 12400 0 0
`;

describe('per-core /proc/stat', () => {
  test('each core is read; the aggregate line and other rows are not cores', () => {
    const cores = parsePerCoreTimes(STAT_BEFORE);
    assert.deepEqual([...cores.keys()], [0, 1]);
    assert.deepEqual(cores.get(1), { user: 200, system: 100, iowait: 0, idle: 1500, total: 1800 });
  });

  test('a saturated core shows although the machine is half idle', () => {
    const busy = perCoreBusy(parsePerCoreTimes(STAT_BEFORE), parsePerCoreTimes(STAT_AFTER));
    assert.deepEqual([...busy], [
      [0, 1],
      [1, 0],
    ]);
  });

  test('a core that came online between readings is left out', () => {
    const busy = perCoreBusy(parsePerCoreTimes('cpu0 1 0 0 1 0 0 0 0\n'), parsePerCoreTimes('cpu0 2 0 0 1 0 0 0 0\ncpu1 5 0 0 5 0 0 0 0\n'));
    assert.deepEqual([...busy.keys()], [0]);
  });
});

describe('/proc/<pid>/stat', () => {
  test('CPU ticks and last core, with a command name holding spaces and parentheses', () => {
    const line = '4242 (node (worker) x) R 1 4242 4242 0 -1 4194560 3000 0 0 0 170 30 0 0 20 0 11 0 12345 1000000 5000 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 3 0 0 0 0 0';
    assert.deepEqual(parseTaskStat(line), { ticks: 200, processor: 3 });
    assert.equal(parseTaskStat('garbage'), null);
  });

  test('reads this very process', { skip: process.platform !== 'linux' }, async () => {
    const { readFileSync } = await import('node:fs');
    const task = parseTaskStat(readFileSync('/proc/self/stat', 'utf8'));
    assert.ok(task && task.ticks >= 0 && task.processor >= 0);
  });
});

describe('/proc/net/netstat', () => {
  const NETSTAT = `TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops TCPTimeouts
TcpExt: 0 0 17 19 4
IpExt: InNoRoutes InOctets
IpExt: 0 123456
`;

  test('TcpExt counters by name, other sections apart', () => {
    const counters = parseNetstat(NETSTAT);
    assert.equal(counters.get('TcpExt.ListenOverflows'), 17);
    assert.equal(counters.get('IpExt.InOctets'), 123456);
    assert.deepEqual(listenCounters(NETSTAT), { overflows: 17, drops: 19 });
  });

  test('a file without the counters reads as zero', () => {
    assert.deepEqual(listenCounters(''), { overflows: 0, drops: 0 });
    assert.deepEqual(listenCounters('TcpExt: ListenOverflows\n'), { overflows: 0, drops: 0 });
  });
});

describe('scheduling and retransmit counters', () => {
  test('the run queue and the host\'s context switches from /proc/stat', () => {
    const stat = 'cpu  1 2 3 4 5 6 7 0 0 0\ncpu0 1 2 3 4 5 6 7 0 0 0\nintr 12345 0 0\nctxt 987654321\nbtime 1700000000\nprocesses 4321\nprocs_running 3\nprocs_blocked 1\n';
    assert.deepEqual(parseHostScheduling(stat), { running: 3, contextSwitches: 987654321 });
    assert.equal(parseHostScheduling('cpu  1 2 3 4\n'), null);
  });

  test('a thread\'s voluntary and involuntary switches from its status', () => {
    const status = 'Name:\tjava\nState:\tS (sleeping)\nThreads:\t1\nvoluntary_ctxt_switches:\t1520\nnonvoluntary_ctxt_switches:\t37\n';
    assert.deepEqual(parseContextSwitches(status), { voluntary: 1520, involuntary: 37 });
    assert.equal(parseContextSwitches('Name:\tjava\n'), null);
  });

  test('TCP segments sent again from /proc/net/snmp', () => {
    const snmp = 'Ip: Forwarding DefaultTTL\nIp: 1 64\nTcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\nTcp: 1 200 120000 -1 10 20 0 1 2 300 400 17 0 5 0\n';
    assert.equal(tcpRetransmits(snmp), 17);
    assert.equal(tcpRetransmits(''), 0);
  });
});
