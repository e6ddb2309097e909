// Tests of the /proc readers with real-shaped fixtures.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countTcpStates,
  cpuShares,
  listeningInodes,
  parseCpuTimes,
  parseMeminfo,
  parseNetDev,
  parseParentPid,
  parsePortRange,
  parseProcStatus,
  parseTcpTable,
} from './proc-stats.ts';

describe('/proc readers', () => {
  test('CPU shares between two /proc/stat readings', () => {
    const before = parseCpuTimes('cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3\n')!;
    const after = parseCpuTimes('cpu  160 0 70 880 90 0 0 0 0 0\n')!;
    const shares = cpuShares(before, after);
    assert.deepEqual(shares, { user: 0.3, system: 0.1, iowait: 0.2, busy: 0.4 });
    assert.equal(parseCpuTimes('intr 1 2'), null);
  });

  test('meminfo', () => {
    assert.deepEqual(parseMeminfo('MemTotal:       16000000 kB\nMemFree:  100 kB\nMemAvailable:    8000000 kB\n'), {
      totalBytes: 16_000_000 * 1024,
      availableBytes: 8_000_000 * 1024,
    });
  });

  test('net/dev sums every interface', () => {
    const text = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0
  eth0:    5000      50    0    0    0     0          0         0     7000      70    0    0    0     0       0          0
`;
    assert.deepEqual(parseNetDev(text), { rxBytes: 6000, txBytes: 8000 });
  });

  test('tcp table: ports, states, listeners', () => {
    const text = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0
   1: 0300E70A:1F90 0200E70A:C350 01 00000000:00000000 00:00000000 00000000     0        0 5555 1 0000000000000000 20 4 30 10 -1
   2: 0200E70A:C351 0300E70A:1F90 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000
`;
    const sockets = parseTcpTable(text);
    assert.equal(sockets.length, 3);
    assert.deepEqual(sockets[2], { localPort: 50001, remotePort: 8080, state: 'TIME_WAIT', inode: 0 });
    assert.deepEqual(countTcpStates(sockets), { LISTEN: 1, ESTABLISHED: 1, TIME_WAIT: 1 });
    assert.deepEqual([...listeningInodes(sockets, 8080)], [4242]);
  });

  test('process status, parent pid, port range', () => {
    assert.deepEqual(parseProcStatus('Name:\tnode\nVmRSS:\t   51200 kB\nThreads:\t11\n'), { rssBytes: 51200 * 1024, threads: 11 });
    assert.equal(parseParentPid('1234 (my (odd) name) S 77 1234 1234 0 -1'), 77);
    assert.deepEqual(parsePortRange('32768\t60999\n'), [32768, 60999]);
    assert.equal(parsePortRange('x'), null);
  });
});
