// The runtimes' own figures per second on the lab (instance `gcloop`), from what each runtime offers
// without changing the server: a JVM template (Jetty) started with its GC log, and the Node template
// started with the event-loop monitor preloaded (which also observes V8's GC). Each is loaded twice,
// lightly and then in a way that stresses what the figure shows: Jetty building megabyte strings
// (/concat) collects garbage more often than serving /hello, and the sync Node server blocking its
// loop for each /sleep answers its timers later than serving /hello. Replay draws the figures from
// the stored seconds, Compare (and the PDF, from the same rows) says them in its runtime line, and
// they cost the store well under 1 KB a second. Then the bottleneck verdict's GC rule on a real Node
// server: building megabyte strings one letter at a time keeps V8 collecting for well over a tenth of
// the time, and the verdict says so with its evidence; serving /hello does not. Relations only, but
// for the rule's own line: how often a runtime collects depends on its heap and the machine.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReplayData } from '../../app/sessions/replay.ts';
import type { Comparison } from '../../app/sessions/comparison.ts';
import type { LivePoint, LiveRun, LiveStep } from '../../app/runs/runs.ts';
import { EXPLAIN_LIMITS } from '../../app/runs/bottleneck-explain.ts';
import { median } from '../../app/common/median.ts';
import { buildEndpointTable, endpointGcText } from '../../app/sessions/comparison-endpoints.ts';
import { renderReportHtml } from '../../app/sessions/comparison-report.ts';
import { oneServerLab } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

const INSTANCE = 'gcloop';
const PORT = 18541;

type Read = LivePoint & { server: NonNullable<LivePoint['server']> };

describe("the runtimes' own figures per second on the lab", { skip: labSkipReason() ?? false }, () => {
  const suite = oneServerLab(INSTANCE, 'benchlab-gcloop-lab-', PORT);
  const { deploy } = suite;

  /** A closed-model run of `path` without a CPU profile (its sampler would add to the figures); its session and measured seconds with a server reading. */
  async function run(target: string, path: string, connections: number, durationS = 5): Promise<{ sessionId: number; read: Read[]; requests: number; step: LiveStep }> {
    const started = await suite.lab.ok<LiveRun>('runs.start', {
      clientHostId: suite.lab.clientId,
      serverHostId: suite.lab.serverId,
      profile: { target, request: { path }, load: { model: 'closed', connections, durationS }, profileServer: false },
    });
    const ended = await suite.lab.services.runs.finished(started.sessionId);
    assert.equal(ended.status, 'completed', ended.message ?? '');
    const replay = await suite.lab.ok<ReplayData>('replay.load', { sessionId: started.sessionId });
    // The sampler's first reading of the server only marks where its files end (as it does for the
    // threads' switches, which it has nothing to compare with yet): the seconds after it are read.
    const read = replay.points.filter((point): point is Read => !point.warmup && !point.drain && point.server !== undefined && point.server.voluntarySwitchesPerS !== null);
    assert.ok(read.length >= 3, `seconds read after the first: ${read.length} of ${replay.points.length}: ${JSON.stringify(replay.points.map((point) => point.server))}`);
    return { sessionId: started.sessionId, read, requests: Math.round(read.reduce((sum, point) => sum + point.rps, 0)), step: ended.steps[0]! };
  }

  async function runtimeLines(sessionIds: number[]): Promise<string[]> {
    const comparison = await suite.lab.ok<Comparison>('compare.open', { sessionIds });
    return comparison.steps.flatMap((step) => step.rows).map((row) => row.serverRuntime ?? '');
  }

  /** The bytes the runtime's figures add to a stored second (as the reading keeps them, by name). */
  function storedBytes(point: Read): number {
    const { gcPauses, gcPauseMs, gcLongestPauseMs, heapAfterGcBytes, eventLoopDelayP50Ms, eventLoopDelayP99Ms, eventLoopDelayMaxMs, monitorWakesPerS } = point.server;
    const figures = { gcPauses, gcPauseMs, gcLongestPauseMs, heapAfterGcBytes, eventLoopDelayP50Ms, eventLoopDelayP99Ms, eventLoopDelayMaxMs, monitorWakesPerS };
    return JSON.stringify(Object.fromEntries(Object.entries(figures).filter(([, value]) => value !== null))).length - 2;
  }

  test('a JVM (Jetty): GC pauses every second from its GC log, more of them while it builds megabyte strings, with the heap after GC; no event-loop figures', async (t) => {
    const target = await deploy('jetty', 'blocking');
    const light = await run(target, '/hello', 1);
    const heavy = await run(target, '/concat?n=1000000', 8, 6);
    for (const point of [...light.read, ...heavy.read]) {
      assert.ok(point.server.gcPauses !== null, `every second has its count, zero when no pause ended: ${JSON.stringify(point.server)}`);
      assert.ok(point.server.gcPauseMs! >= point.server.gcLongestPauseMs!, JSON.stringify(point.server));
      assert.equal(point.server.eventLoopDelayP99Ms, null, 'a JVM carries no event-loop monitor');
      assert.ok(storedBytes(point) <= 1024, `${storedBytes(point)} bytes`);
    }
    const pauses = (read: Read[]) => read.reduce((sum, point) => sum + point.server.gcPauses!, 0);
    t.diagnostic(`GC pauses: ${pauses(light.read)} over ${light.read.length} s of /hello (${light.requests} requests), ${pauses(heavy.read)} over ${heavy.read.length} s of /concat (${heavy.requests} requests); stored ${Math.max(...heavy.read.map(storedBytes))} bytes a second at most`);
    assert.ok(pauses(heavy.read) > pauses(light.read), `megabyte strings, more collections: ${pauses(light.read)} then ${pauses(heavy.read)}`);
    const heaps = heavy.read.map((point) => point.server.heapAfterGcBytes).filter((bytes): bytes is number => bytes !== null);
    assert.ok(heaps.length > 0 && heaps.every((bytes) => bytes > 0), `the heap after a GC: ${heaps.join(', ')}`);

    const [, heavyLine] = await runtimeLines([light.sessionId, heavy.sessionId]);
    assert.match(heavyLine!, / · GC [\d,]+ pauses, [\d.]+ % of the time, longest [\d.,]+ ms, heap after GC up to [\d.,]+ [kMG]?B \(medians/);
  });

  test("Node (sync): event-loop delay every second from the preloaded monitor, longer while each /sleep blocks the loop; its GC and the monitor's own timer runs too", async (t) => {
    const target = await deploy('node', 'sync');
    const free = await run(target, '/hello', 2);
    const blocked = await run(target, '/sleep?ms=200', 2);
    for (const point of [...free.read, ...blocked.read]) {
      const server = point.server;
      assert.ok(server.eventLoopDelayP99Ms !== null, `every second has its delay: ${JSON.stringify(server)}`);
      assert.ok(server.eventLoopDelayP50Ms! <= server.eventLoopDelayP99Ms! && server.eventLoopDelayP99Ms! <= server.eventLoopDelayMaxMs!, JSON.stringify(server));
      assert.ok(server.gcPauses !== null && server.gcPauseMs! >= server.gcLongestPauseMs!, `every second has its GC from V8: ${JSON.stringify(server)}`);
      // Counted from the monitor's new lines of the second: its line a second runs on its own clock
      // (later still while a request blocks the loop), so a second may get none and the next two.
      assert.ok(server.monitorWakesPerS! >= 0, `every second has its count of the monitor's timer runs: ${JSON.stringify(server)}`);
      assert.ok(storedBytes(point) <= 1024, `${storedBytes(point)} bytes`);
    }
    for (const { read } of [free, blocked]) {
      const wakes = read.reduce((sum, point) => sum + point.server.monitorWakesPerS!, 0);
      assert.ok(wakes > 0, `the monitor's timer runs: ${read.map((point) => point.server.monitorWakesPerS).join(', ')} over ${read.length} s`);
    }
    const p99s = (read: Read[]) => read.map((point) => point.server.eventLoopDelayP99Ms!);
    t.diagnostic(`event-loop delay p99: median ${median(p99s(free.read))} ms on /hello, ${median(p99s(blocked.read))} ms on /sleep?ms=200`);
    assert.ok(median(p99s(blocked.read))! > median(p99s(free.read))!, `a loop blocked by each request runs its timers later: ${median(p99s(free.read))} then ${median(p99s(blocked.read))}`);

    const [, blockedLine] = await runtimeLines([free.sessionId, blocked.sessionId]);
    assert.match(blockedLine!, / · event-loop delay p99 [\d.,]+ ms, worst [\d.,]+ ms \(medians/);
  });

  test("the GC rule on a real Node server: megabyte strings built a letter at a time keep V8 collecting over a tenth of the time, and the verdict says so with its evidence, as Compare's cells, runtime line and the PDF; /hello does not", async (t) => {
    const target = await deploy('node', 'async');
    const light = await run(target, '/hello', 2);
    const heavy = await run(target, '/concat?n=1000000', 2);
    const share = (read: Read[]) => read.reduce((sum, point) => sum + point.server.gcPauseMs!, 0) / (read.length * 1000);
    const kinds = (step: LiveStep) => step.bottleneck?.evidence.map((evidence) => evidence.kind) ?? [];
    t.diagnostic(`GC share: ${(share(light.read) * 100).toFixed(1)} % on /hello, ${(share(heavy.read) * 100).toFixed(1)} % on /concat; verdicts ${JSON.stringify(light.step.bottleneck?.headline)}, ${JSON.stringify(heavy.step.bottleneck?.headline)}`);
    assert.ok(share(heavy.read) > EXPLAIN_LIMITS.gcShare, `megabyte strings: GC over a tenth of the time: ${JSON.stringify(heavy.read.map((point) => point.server.gcPauseMs))}`);
    assert.ok(share(light.read) < EXPLAIN_LIMITS.gcShare && share(light.read) < share(heavy.read), `/hello: ${JSON.stringify(light.read.map((point) => point.server.gcPauseMs))}`);
    const gc = heavy.step.bottleneck?.evidence.find((evidence) => evidence.kind === 'gc');
    assert.ok(gc, `the verdict names GC: ${JSON.stringify(heavy.step.bottleneck)}`);
    assert.match(gc.message, /^GC paused the server [\d.]+ % of the time: [\d,]+ pauses in \d+ s, the longest [\d.,]+ ms; heap after GC up to [\d.,]+ [kMG]?B$/);
    assert.ok(!kinds(light.step).includes('gc'), `/hello: no GC in the verdict: ${JSON.stringify(light.step.bottleneck)}`);

    // Compare: the runtime line and the per-endpoint cells say the same GC in the same words, and so does the PDF.
    const comparison = await suite.lab.ok<Comparison>('compare.open', { sessionIds: [light.sessionId, heavy.sessionId] });
    t.diagnostic(`stored runtime figures: at most ${Math.max(...[...light.read, ...heavy.read].map(storedBytes))} bytes a second`);
    for (const point of [...light.read, ...heavy.read]) assert.ok(storedBytes(point) <= 1024, `${storedBytes(point)} bytes`);
    const [lightLine, heavyLine] = comparison.steps.flatMap((step) => step.rows).map((row) => row.serverRuntime ?? '');
    assert.match(heavyLine!, / · GC [\d,]+ pauses, [\d.]+ % of the time, longest [\d.,]+ ms, heap after GC up to [\d.,]+ [kMG]?B · event-loop delay/);
    assert.match(lightLine!, /context switches\/s [\d,]+ waited \(up to [\d,]+ of them the event-loop monitor's timer\)/);
    const table = buildEndpointTable(comparison)!;
    assert.equal(table.gc, true, 'the per-endpoint table has its GC line');
    const cells = table.rows.map((row) => endpointGcText(row.cells[0]!));
    for (const cell of cells) assert.match(cell, /^GC [\d.]+ % of the time, heap after GC up to [\d.,]+ [kMG]?B$/);
    assert.ok(heavyLine!.includes(cells.find((cell) => table.rows[cells.indexOf(cell)]!.request.includes('concat'))!.slice('GC '.length).split(',')[0]!), `the same share in both: ${heavyLine} / ${cells.join(' / ')}`);
    const pdf = renderReportHtml(comparison, { generatedAt: new Date() });
    for (const cell of cells) assert.ok(pdf.includes(cell), `the PDF prints ${cell}`);
    assert.ok(pdf.includes(gc.message), "the PDF prints the verdict's GC evidence");
  });
});
