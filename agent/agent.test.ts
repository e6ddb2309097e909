// The sampler and probe roles end to end on this machine, as Benchlab drives them. The load role's
// behaviour, on each engine, is the conformance suite's (agent/conformance/).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endOf, runAgent, startTestServer, type TestServer } from './agent-harness.ts';

describe('agent: sampler and probe', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('the sampler finds the process listening on the port and reports it every second', async () => {
    const run = await runAgent({ role: 'sampler', port: server.port, capS: 30 }, { stopWhen: (line) => line.type === 'server' && line.second === 1 });
    assert.equal(endOf(run)?.reason, 'stopped');
    const lines = run.lines.filter((line) => line.type === 'server');
    assert.equal(lines.length, 2);
    const last = lines[1]!;
    assert.ok(last.type === 'server');
    assert.equal(last.server.processPid, process.pid);
    assert.ok(last.server.processRssBytes! > 10_000_000);
    assert.ok(last.server.processThreads! >= 1);
    assert.ok(last.server.processFds! > 3);
    assert.ok(last.server.memTotalBytes > last.server.memUsedBytes);
    assert.ok((last.server.tcp.LISTEN ?? 0) >= 1);
  });

  test('the probe says whether the target is reachable, and why not', async () => {
    const ok = await runAgent({ role: 'probe', target: { hostname: '127.0.0.1', port: server.port }, timeoutMs: 2000 });
    assert.deepEqual(
      ok.lines.filter((line) => line.type === 'probe').map((line) => line.type === 'probe' && line.reachable),
      [true],
    );
    const refused = await runAgent({ role: 'probe', target: { hostname: '127.0.0.1', port: 1 }, timeoutMs: 2000 });
    const line = refused.lines.find((entry) => entry.type === 'probe');
    assert.ok(line?.type === 'probe' && !line.reachable);
    assert.match(line.message ?? '', /connection refused/);
  });
});
