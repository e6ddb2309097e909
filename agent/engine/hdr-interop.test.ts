// The native engine's histograms through the app's own decoder (app/common/hdr.ts): the engine is
// built from these sources, run against a small Node server with answers spread over a few ms,
// and every interval's histogram must decode to as many latencies as the line counts answers and
// to the very percentiles the line reports; its phases' histograms decode too, one waiting and one
// processing time per answer and one connect time per new connection. Skips when no Go toolchain
// is here, unless BENCHLAB_REQUIRE_ENGINE=1.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { decodeHistogram, latencyStats, mergeEncodedHistograms } from '../../app/common/hdr.ts';
import { GO, skipWithoutGo } from '../../tests/support/go-toolchain.ts';

const skip = skipWithoutGo('no Go toolchain here to build the engine');

interface IntervalLine {
  type: 'interval';
  phase: string;
  requests: number;
  histogram: string | null;
  p50Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  maxUs: number | null;
  phases: { connect: string | null; waiting: string | null; processing: string | null; withConnect: number };
  engine: { newConnections: number };
}

let dir: string;
let binary: string;
let server: Server;

before(() => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'benchlab-engine-hdr-'));
  binary = join(dir, 'benchlab-engine');
  assert.ok(GO, 'BENCHLAB_REQUIRE_ENGINE=1 but no Go toolchain is here');
  execFileSync(GO, ['build', '-o', binary, '.'], { cwd: import.meta.dirname, env: { ...process.env, CGO_ENABLED: '0' }, stdio: 'inherit' });
  let answered = 0;
  // Answers 0–3 ms late, so the histograms hold many distinct buckets.
  server = createServer((_request, response) => setTimeout(() => response.end('ok'), answered++ % 4));
  return new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

after(() => {
  server?.close();
  if (dir && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
});

function runEngine(config: object): Promise<IntervalLine[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['run'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; reason?: string });
      if (code !== 0 || lines.at(-1)?.reason !== 'completed') reject(new Error(`engine exited ${code}: ${text}`));
      else resolve(lines.filter((line): line is IntervalLine => line.type === 'interval'));
    });
    // stdin stays open until the step ends: EOF would stop it.
    child.stdin.write(`${JSON.stringify(config)}\n`);
    child.stdout.on('end', () => child.stdin.end());
  });
}

test('every interval histogram decodes with app/common/hdr.ts to the line’s count and percentiles', { skip }, async () => {
  const { port } = server.address() as AddressInfo;
  const lines = await runEngine({
    target: { hostname: '127.0.0.1', port },
    request: { method: 'GET', path: '/', headers: {}, timeoutMs: 5000 },
    load: { model: 'closed', connections: 8, pipelining: 1, durationS: 2 },
    warmupS: 0,
    capS: 20,
    threads: [{ connections: 4 }, { connections: 4 }],
  });
  const withLatencies = lines.filter((line) => line.histogram !== null);
  assert.ok(withLatencies.length >= 2, `${withLatencies.length} lines with a histogram`);
  for (const line of withLatencies) {
    const histogram = decodeHistogram(line.histogram!);
    assert.equal(histogram.totalCount, line.requests, `${line.phase}: one latency per answer`);
    const stats = latencyStats(histogram);
    assert.deepEqual([stats.p50Us, stats.p90Us, stats.p99Us, stats.maxUs], [line.p50Us, line.p90Us, line.p99Us, line.maxUs]);
    // The answers' phases: one waiting and one processing time per answer, decoded the same way.
    assert.equal(decodeHistogram(line.phases.waiting!).totalCount, line.requests, `${line.phase}: one waiting time per answer`);
    assert.equal(decodeHistogram(line.phases.processing!).totalCount, line.requests, `${line.phase}: one processing time per answer`);
  }
  const connects = lines.filter((line) => line.phases.connect !== null);
  assert.ok(connects.length >= 1, 'the connects are reported');
  for (const line of lines) {
    assert.equal(line.phases.connect === null ? 0 : decodeHistogram(line.phases.connect).totalCount, line.engine.newConnections, 'one connect time per new connection');
  }
  const total = mergeEncodedHistograms(lines.map((line) => line.histogram));
  assert.equal(
    total.totalCount,
    lines.reduce((sum, line) => sum + line.requests, 0),
  );
  assert.ok(latencyStats(total).maxUs! >= 1000, 'the server’s delays show in the latencies');
});
