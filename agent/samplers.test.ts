// Tests of the samplers' bottleneck readings on this machine: which cores count as the agent's, and
// that real samples carry the agent's threads and cores, the busiest server core, the server
// process's CPU and the listen counters in the shapes the protocol checks.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { ClientMetrics, ServerMetrics } from '../app/runs/agent-protocol.ts';
import { busyCores, ClientMetricsSampler } from './client-metrics.ts';
import { ServerSampler } from './server-sampler.ts';

const linux = process.platform === 'linux';

/** A sampler of this process as the "server": it listens on a loopback port for as long as `use` runs. */
async function withListeningSampler(use: (sampler: ServerSampler) => Promise<void> | void): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use(new ServerSampler((server.address() as { port: number }).port));
  } finally {
    server.close();
  }
}

describe('samplers', () => {
  test('the agent runs on the cores of its busy threads; idle helper threads say nothing', () => {
    const before = new Map([
      ['100', 1000],
      ['101', 500],
      ['102', 20],
    ]);
    const after = {
      ticks: new Map([
        ['100', 1095], // a load thread: 95 of 100 ticks
        ['101', 501], // an idle helper
        ['102', 40], // 20 ticks: busy enough to count
        ['103', 90], // a thread born in the interval: no earlier reading
      ]),
      processors: new Map([
        ['100', 1],
        ['101', 0],
        ['102', 3],
        ['103', 2],
      ]),
    };
    assert.deepEqual([...busyCores(before, after, 100)].sort(), [1, 3]);
  });

  test('a client sample carries the load threads and the busy share of the agent’s cores', { skip: !linux }, () => {
    const sampler = new ClientMetricsSampler(1, 3);
    // Keep this thread busy for a few scheduler ticks so it counts as one the agent runs on. On a busy
    // machine it may get too small a share of its interval's ticks to count: spin and read again.
    let metrics = ClientMetrics.parse(sampler.sample({ lagMs: 0, backlog: 0, sent: 0, portErrors: 0 }));
    for (let attempt = 0; attempt < 20 && (attempt === 0 || metrics.agentCoresBusy === null); attempt++) {
      const until = performance.now() + 200;
      while (performance.now() < until);
      metrics = ClientMetrics.parse(sampler.sample({ lagMs: 0, backlog: 0, sent: 0, portErrors: 0 }));
    }
    assert.equal(metrics.loadThreads, 3);
    assert.ok(metrics.agentCoresBusy !== null && metrics.agentCoresBusy > 0 && metrics.agentCoresBusy <= 1, String(metrics.agentCoresBusy));
  });

  test('a server sample finds the listening process and reads its CPU, the busiest core and the listen counters', { skip: !linux }, () =>
    withListeningSampler(async (sampler) => {
      sampler.sample(); // finds the process; its CPU counts from here
      const metrics = ServerMetrics.parse(sampler.sample());
      assert.equal(metrics.processPid, process.pid);
      assert.ok(metrics.processCpu !== null && metrics.processCpu >= 0, String(metrics.processCpu));
      assert.ok(metrics.busiestCoreCpu !== null && metrics.busiestCoreCpu >= 0 && metrics.busiestCoreCpu <= 1);
      assert.ok(Number.isInteger(metrics.listenOverflows) && Number.isInteger(metrics.listenDrops));
      // Each reading says when it was taken, so it is stored with the client second it belongs to.
      const later = sampler.sample();
      assert.ok(metrics.readAt !== undefined && later.readAt !== undefined && later.readAt >= metrics.readAt, `${metrics.readAt} then ${later.readAt}`);
      assert.ok(Math.abs(later.readAt - Date.now()) < 60_000, 'on the host’s epoch clock');
    }));

  test('a server sample reads each core, the run queue, the host\'s and the server threads\' context switches and the retransmits', { skip: !linux }, () =>
    withListeningSampler(async (sampler) => {
      // The reading that finds the process has no earlier one of its threads to compare with: unknown, not zero.
      const first = ServerMetrics.parse(sampler.sample());
      assert.equal(first.processPid, process.pid);
      assert.equal(first.processVoluntarySwitchesPerS, null);
      // This process (the "server") waits on timers a few times: each wait is a voluntary switch.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      const metrics = ServerMetrics.parse(sampler.sample());
      assert.equal(metrics.coreCpu!.length, metrics.cores, 'one busy share per core');
      assert.ok(metrics.coreCpu!.every((busy) => busy >= 0 && busy <= 1));
      assert.equal(Math.max(...metrics.coreCpu!), metrics.busiestCoreCpu, 'the busiest core is one of them');
      assert.ok(metrics.runQueue! >= 1, 'the sampler itself is running');
      assert.ok(metrics.hostContextSwitchesPerS! > 0);
      assert.ok(metrics.processVoluntarySwitchesPerS! > 0, `the server's threads waited: ${metrics.processVoluntarySwitchesPerS}`);
      assert.ok(metrics.processInvoluntarySwitchesPerS! >= 0);
      assert.ok(metrics.processVoluntarySwitchesPerS! <= metrics.hostContextSwitchesPerS!, 'a process switches no more than its host');
      assert.ok(Number.isInteger(metrics.tcpRetransmits));
    }));

  test('lines from an older agent still parse, the new readings unknown or zero', () => {
    const client = ClientMetrics.parse({ cpu: 0.1, agentCpu: 0.1, cores: 2, eventLoopLagMs: 1, openSockets: 0, timeWait: 0, backlog: 0, sent: 0, portErrors: 0, portRangeSize: null });
    assert.equal(client.loadThreads, 0);
    assert.equal(client.agentCoresBusy, null);
    const server = ServerMetrics.parse({
      cpuUser: 0, cpuSystem: 0, cpuIowait: 0, cpu: 0, cores: 2, memTotalBytes: 1, memUsedBytes: 1,
      processRssBytes: null, processFds: null, processThreads: null, processPid: null, rxBytesPerS: 0, txBytesPerS: 0, tcp: {},
    });
    assert.deepEqual([server.busiestCoreCpu, server.processCpu, server.listenOverflows, server.listenDrops], [null, null, 0, 0]);
    assert.deepEqual([server.coreCpu, server.runQueue, server.processVoluntarySwitchesPerS, server.tcpRetransmits], [undefined, undefined, undefined, undefined]);
  });
});
