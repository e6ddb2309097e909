import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as hdr from 'hdr-histogram-js';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs, type LatencyHistogram } from '../common/hdr.ts';
import type { RunSecond } from '../runs/run-second.ts';
import { encodeCoreBusy } from '../runs/core-busy.ts';
import { csvCell, exportSession, sessionCsv, sessionHdrLog, sessionJson, type ExportRun, type SessionExportInput } from './session-export.ts';
import type { Session } from './sessions.ts';
import { HostsRepository } from '../../main/services/hosts/hosts-repository.ts';
import { RunsRepository } from '../../main/services/runs/runs-repository.ts';
import { SamplesRepository } from '../../main/services/runs/samples-repository.ts';
import { SessionExports } from '../../main/services/sessions/session-exports.ts';
import { SessionsRepository } from '../../main/services/runs/sessions-repository.ts';
import { createSeeder } from '../../tests/support/session-seed.ts';
import { openTestDatabase } from '../../tests/support/test-database.ts';

const { db } = openTestDatabase('export');
const seeder = createSeeder(db);
const sweep = seeder.session({ name: 'Vert.x sweep', templateId: 'vertx', variant: 'event-loop', rps: 2000, latencyUs: 900, seconds: 12, sweep: [10, 100], tags: ['jvm', 'nightly'], notes: 'two steps' });
const single = seeder.session({ name: 'Node hello', templateId: 'node', rps: 500, latencyUs: 300, seconds: 8 });
// The service's reader: the one way the export's input is read from the store.
const reader = new SessionExports({ sessions: new SessionsRepository(db), runs: new RunsRepository(db), samples: new SamplesRepository(db), hosts: new HostsRepository(db) });
const storedSweep = reader.read(sweep.sessionId, { histograms: true });
const storedSingle = reader.read(single.sessionId, { histograms: true });
const exportedAt = new Date('2026-03-02T08:00:00.000Z');

interface JsonDocument {
  format: string;
  version: number;
  exportedAt: string;
  session: Record<string, unknown> & { hosts: { client: string; server: string }; templates: unknown[] };
  runs: Array<{
    ordinal: number;
    label: string;
    summary: {
      requests: number;
      books: { scheduled: number; answered: number; errors: number; timeouts: number; notSent: number; inFlight: number; balanced: boolean };
      [key: string]: unknown;
    };
    seconds: Array<{ scheduled: number; requests: number; bytes: number; status: Record<string, number>; errors: Record<string, number>; notSent: Record<string, number> }>;
    [key: string]: unknown;
  }>;
}

test('JSON: a versioned document of the session, its runs with their stored summaries, and every stored second', () => {
  const text = sessionJson(storedSweep, exportedAt);
  const document = JSON.parse(text) as JsonDocument;
  assert.deepEqual(Object.keys(document), ['format', 'version', 'exportedAt', 'session', 'runs']);
  assert.equal(document.format, 'benchlab-session');
  assert.equal(document.version, 1);
  assert.equal(document.exportedAt, '2026-03-02T08:00:00.000Z');
  assert.deepEqual(Object.keys(document.session), ['id', 'name', 'status', 'tags', 'notes', 'createdAt', 'startedAt', 'endedAt', 'hosts', 'engine', 'components', 'database', 'templates', 'profile', 'imported']);
  assert.equal(document.session.id, sweep.sessionId);
  assert.equal(document.session.name, 'Vert.x sweep');
  assert.deepEqual(document.session.tags, ['jvm', 'nightly']);
  assert.equal(document.session.notes, 'two steps');
  assert.deepEqual(document.session.hosts, { client: 'seed-client', server: 'seed-server' });
  assert.equal(document.session.engine, null, 'the seeded session recorded no engine');
  const withEngine = { ...storedSweep, session: { ...storedSweep.session, config: { ...storedSweep.session.config, engine: { choice: 'auto', kind: 'native', notice: null } } } };
  assert.equal((JSON.parse(sessionJson(withEngine, exportedAt)) as JsonDocument).session.engine, 'native', 'the engine the session recorded, as the Run page shows it');
  assert.equal(document.session.components, null, 'the seeded session recorded no components');
  const withComponents = { ...storedSweep, session: { ...storedSweep.session, config: { ...storedSweep.session.config, components: { pg: '8.23.1', node: '24.11.0' } } } };
  assert.deepEqual((JSON.parse(sessionJson(withComponents, exportedAt)) as JsonDocument).session.components, { node: '24.11.0', pg: '8.23.1' }, 'what the server ran with, keys sorted');
  assert.equal(document.session.database, null, 'the seeded session recorded no database');
  const database = { kind: 'postgresql', version: '15.14', port: 41234, name: 'benchlab', user: 'benchlab', settings: { work_mem: '4MB', fsync: 'on' } };
  const withDatabase = { ...storedSweep, session: { ...storedSweep.session, config: { ...storedSweep.session.config, database } } };
  assert.deepEqual((JSON.parse(sessionJson(withDatabase, exportedAt)) as JsonDocument).session.database, { ...database, settings: { fsync: 'on', work_mem: '4MB' } }, 'the private database it ran with');
  const malformed = { ...storedSweep, session: { ...storedSweep.session, config: { ...storedSweep.session.config, database: { kind: 'postgresql' } } } };
  assert.equal((JSON.parse(sessionJson(malformed, exportedAt)) as JsonDocument).session.database, null, 'a malformed record reads as none');
  assert.equal(document.session.imported, null, 'measured by Benchlab');
  assert.deepEqual(document.session.templates, [{ template: 'vertx', variant: 'event-loop', knobs: {} }]);
  assert.equal((document.session.profile as { load: { model: string } }).load.model, 'closed');
  // No internal ids but the session's: runs go by ordinal, hosts by name.
  assert.ok(!/"(runId|sessionId|clientHostId|serverHostId|originSessionId)"/.test(text));
  assert.deepEqual(
    document.runs.map((run) => [run.ordinal, run.label, run.seconds.length]),
    [
      [1, 'c=10, 12 s', 12],
      [2, 'c=100, 12 s', 12],
    ],
  );
  for (const [index, run] of document.runs.entries()) {
    const stored = storedSweep.runs[index]!.summary!;
    assert.equal(run.summary.requests, stored.requests);
    assert.equal(run.summary.p99Us, stored.p99Us);
    assert.equal(typeof run.summary.requestsPerSecond, 'number');
    // Stored before the summary kept it: the server's memory from the stored seconds' readings.
    assert.deepEqual(run.summary.serverMemory, { minBytes: 8e7, maxBytes: 8e7, endBytes: 8e7 });
    // The seconds add up to the summary's books.
    const sum = (pick: (second: JsonDocument['runs'][number]['seconds'][number]) => number) => run.seconds.reduce((total, second) => total + pick(second), 0);
    const books = run.summary.books;
    assert.equal(sum((second) => second.scheduled), books.scheduled);
    assert.equal(sum((second) => Object.values(second.status).reduce((a, b) => a + b, 0)), books.answered);
    assert.equal(sum((second) => second.errors.timeout!), books.timeouts);
    assert.equal(sum((second) => second.notSent['pool-full']! + second.notSent['step-ended']!), books.notSent);
    assert.equal(sum((second) => second.requests), run.summary.requests);
    assert.ok(books.scheduled > 0 && books.balanced);
  }
  assert.deepEqual(Object.keys(document.runs[0]!.seconds[0]!), [
    'second',
    'client',
    'phase',
    'durationMs',
    'scheduled',
    'requests',
    'requestsPerSecond',
    'bytes',
    'p50Us',
    'p90Us',
    'p99Us',
    'maxUs',
    'errors',
    'notSent',
    'inFlight',
    'status',
    'withConnect',
    'clientMetrics',
    'serverMetrics',
  ]);
  // Stable: the same session exports to the same bytes, with or without the histograms read.
  assert.equal(sessionJson(reader.read(sweep.sessionId, { histograms: false }), exportedAt), text);
});

test('JSON: a run cut off before its summary was written is summarized from its stored seconds', () => {
  const run = { ...storedSingle.runs[0]!, summary: null };
  const document = JSON.parse(sessionJson({ ...storedSingle, runs: [run] })) as JsonDocument;
  assert.equal(document.runs[0]!.summary.requests, storedSingle.runs[0]!.summary!.requests);
  assert.equal(document.runs[0]!.summary.books.scheduled, storedSingle.runs[0]!.summary!.books!.scheduled);
});

/** The cells of one CSV row as RFC 4180 quotes them. */
/** A CSV line's cells, empty ones at its end too. */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    const quoted = /^"((?:[^"]|"")*)"/.exec(line.slice(at));
    const cell = quoted ? quoted[0] : line.slice(at).split(',')[0]!;
    cells.push(quoted ? quoted[1]!.replaceAll('""', '"') : cell);
    at += cell.length;
    if (at >= line.length) return cells;
    at++; // the comma
    if (at === line.length) return [...cells, ''];
  }
}

test('CSV: a header with units, one row per stored second and client', () => {
  const lines = sessionCsv(storedSweep).split('\r\n');
  assert.equal(lines.pop(), '', 'every row ends with CRLF');
  const header = cellsOf(lines[0]!);
  assert.deepEqual(header.slice(0, 15), ['run', 'step', 'template', 'variant', 'second', 'client', 'phase', 'duration_ms', 'requests', 'rps', 'bytes', 'p50_us', 'p90_us', 'p99_us', 'max_us']);
  for (const column of ['errors_timeout', 'errors_reset', 'not_sent_pool_full', 'not_sent', 'scheduled', 'in_flight', 'status_2xx', 'status_5xx']) assert.ok(header.includes(column), column);
  const storedSeconds = storedSweep.runs.reduce((total, run) => total + run.seconds.length, 0);
  assert.equal(lines.length - 1, storedSeconds);
  const rows = lines.slice(1).map((line) => Object.fromEntries(cellsOf(line).map((cell, i) => [header[i]!, cell])));
  assert.ok(rows.every((row) => Object.keys(row).length === header.length));
  const stored = storedSweep.runs[1]!.seconds[3]!;
  const row = rows[12 + 3]!;
  assert.deepEqual(
    [row.run, row.step, row.template, row.variant, row.second, row.client, row.phase, row.duration_ms],
    ['2', 'c=100, 12 s', 'vertx', 'event-loop', '3', '0', 'measure', '1000'],
  );
  assert.equal(row.requests, String(stored.requests));
  assert.equal(row.rps, String(stored.requests));
  assert.equal(row.status_2xx, String(stored.statusClasses['2xx']));
  assert.equal(row.scheduled, String(stored.scheduled));
  assert.equal(row.p99_us, String(stored.p99Us));
  assert.equal(row.errors_timeout, '0');
  // The server's reading of the second, in its own columns; empty where the second has none.
  const server = stored.serverMetrics!;
  assert.deepEqual(
    [row.server_cpu, row.server_rss_bytes, row.server_threads, row.server_run_queue, row.server_voluntary_switches_per_s, row.server_involuntary_switches_per_s, row.server_tcp_retransmits],
    [server.cpu, server.processRssBytes, server.processThreads, server.runQueue, server.processVoluntarySwitchesPerS, server.processInvoluntarySwitchesPerS, server.tcpRetransmits].map(String),
  );
  assert.equal(row.server_busiest_core_cpu, '', 'a figure the reading lacks is an empty cell, not 0');
  assert.deepEqual([row.server_gc_pauses, row.server_event_loop_p99_ms], ['', ''], 'a runtime figure the reading lacks (no GC log, no loop monitor) is an empty cell');
  assert.ok(lines[1]!.startsWith('1,"c=10, 12 s",vertx,event-loop,0,0,measure,1000,'), 'a label with a comma is quoted');
});

test("CSV: a JVM server's GC pauses and heap after GC, a Node server's event-loop delay and its monitor's wakes, each second in its own columns", () => {
  const input = structuredClone(storedSingle);
  const seconds = input.runs[0]!.seconds;
  seconds[0] = { ...seconds[0]!, serverMetrics: { ...seconds[0]!.serverMetrics, gcPauses: 2, gcPauseMs: 7.5, gcLongestPauseMs: 5, heapAfterGcBytes: 40_000_000 } };
  seconds[1] = { ...seconds[1]!, serverMetrics: { ...seconds[1]!.serverMetrics, eventLoopDelayP50Ms: 0.2, eventLoopDelayP99Ms: 3.5, eventLoopDelayMaxMs: 12, monitorWakesPerS: 97 } };
  const [headerLine, first, second] = sessionCsv(input).split('\r\n');
  const header = cellsOf(headerLine!);
  const row = (line: string) => Object.fromEntries(cellsOf(line).map((cell, i) => [header[i]!, cell]));
  const columns = ['server_gc_pauses', 'server_gc_pause_ms', 'server_gc_longest_pause_ms', 'server_heap_after_gc_bytes', 'server_event_loop_p50_ms', 'server_event_loop_p99_ms', 'server_event_loop_max_ms', 'server_monitor_wakes_per_s'];
  assert.deepEqual(columns.map((column) => row(first!)[column]), ['2', '7.5', '5', '40000000', '', '', '', '']);
  assert.deepEqual(columns.map((column) => row(second!)[column]), ['', '', '', '', '0.2', '3.5', '12', '97']);
});

test("JSON: each core's busy share is a list, coreCpu, whether the row kept one string or a key per core", () => {
  const input = structuredClone(storedSingle);
  const seconds = input.runs[0]!.seconds;
  seconds[0] = { ...seconds[0]!, serverMetrics: { ...seconds[0]!.serverMetrics, coreBusy: encodeCoreBusy([0.973, 0.05, 0]) } };
  seconds[1] = { ...seconds[1]!, serverMetrics: { ...seconds[1]!.serverMetrics, 'core.0': 0.973, 'core.1': 0.05, 'core.2': 0 } };
  const document = JSON.parse(sessionJson(input, exportedAt)) as { runs: Array<{ seconds: Array<{ serverMetrics: Record<string, unknown> }> }> };
  const [now, before, none] = document.runs[0]!.seconds.map((second) => second.serverMetrics);
  assert.deepEqual(now!.coreCpu, [0.973, 0.05, 0]);
  assert.deepEqual(Object.keys(before!), Object.keys(now!), 'an older row exports in the same shape');
  assert.deepEqual(before!.coreCpu, now!.coreCpu);
  assert.equal(none!.coreCpu, undefined, 'a reading without cores has no list');
});

test('CSV: text cells are quoted as RFC 4180 says and formulas are neutralised; numbers stay numbers', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('say "hi", twice'), '"say ""hi"", twice"');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell('=HYPERLINK("http://x")'), '"\'=HYPERLINK(""http://x"")"');
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell('-sync'), "'-sync");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell(-5), '-5');
  assert.equal(csvCell(null), '');
  const hostile: ExportRun = { ...storedSingle.runs[0]!, templateId: '=cmd|x', variant: '@v', step: { label: 'a "b", c' } };
  const row = sessionCsv({ ...storedSingle, runs: [hostile] }).split('\r\n')[1]!;
  assert.ok(row.startsWith(`1,"a ""b"", c",'=cmd|x,'@v,0,`), row);
});

/** Every interval of the log by tag, added up, as HdrHistogram's own log reader reads them. */
function readLog(text: string): Map<string, { histogram: LatencyHistogram; intervals: number; firstStartMs: number }> {
  const reader = new hdr.HistogramLogReader(text);
  const byTag = new Map<string, { histogram: LatencyHistogram; intervals: number; firstStartMs: number }>();
  for (let interval = reader.nextIntervalHistogram(); interval; interval = reader.nextIntervalHistogram()) {
    const entry = byTag.get(interval.tag) ?? { histogram: createLatencyHistogram(), intervals: 0, firstStartMs: interval.startTimeStampMsec };
    entry.histogram.add(interval as LatencyHistogram);
    entry.intervals++;
    byTag.set(interval.tag, entry);
  }
  return byTag;
}

test('HdrHistogram log: read back by the library log reader, each run gives the count and percentiles of its summary', () => {
  const text = sessionHdrLog(storedSweep);
  const lines = text.split('\n');
  assert.ok(lines.includes('#[Histogram log format version 1.3]'));
  assert.ok(lines.includes('"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"'));
  assert.ok(lines.some((line) => /^#\[StartTime: 1772359200\.000 \(seconds since epoch\), 2026-03-01T10:00:00\.000Z\]$/.test(line)), text.slice(0, 600));
  assert.ok(lines.includes('#[BaseTime: 1772359200.000 (seconds since epoch)]'));
  assert.ok(lines.some((line) => line.includes('microseconds')));
  assert.match(lines.find((line) => line.startsWith('Tag=run-1,'))!, /^Tag=run-1,0\.000,1\.000,\d+\.\d{3},HISTFAA/);
  const read = readLog(text);
  assert.deepEqual([...read.keys()], ['run-1', 'run-2']);
  for (const [index, run] of storedSweep.runs.entries()) {
    const summary = run.summary!;
    const entry = read.get(`run-${run.ordinal}`)!;
    assert.equal(entry.intervals, run.seconds.length);
    assert.equal(entry.histogram.totalCount, summary.bands.reduce((total, band) => total + band.count, 0));
    assert.equal(entry.histogram.getValueAtPercentile(99), summary.p99Us);
    assert.equal(entry.histogram.getValueAtPercentile(50), summary.p50Us);
    assert.equal(entry.histogram.highestEquivalentValue(entry.histogram.maxValue), summary.maxUs);
    // Timestamps are the seconds' own: the second run starts where the first ended.
    assert.equal(entry.firstStartMs, Date.parse('2026-03-01T10:00:00.000Z') + index * 12_000);
  }
});

test('HdrHistogram log: one run has no tags; clients of one second are added into one interval', () => {
  assert.ok(!sessionHdrLog(storedSingle).includes('Tag='));
  const histogramOf = (latencies: number[]) => {
    const histogram = createLatencyHistogram();
    for (const latency of latencies) recordLatencyUs(histogram, latency);
    return encodeHistogram(histogram);
  };
  const base = storedSingle.runs[0]!.seconds[0]!;
  const seconds: RunSecond[] = [
    { ...base, second: 0, clientIndex: 0, histogram: histogramOf([100, 200, 300]), clientMetrics: { at: 1_772_359_201_000, durationMs: 1000 } },
    { ...base, second: 0, clientIndex: 1, histogram: histogramOf([5000]), clientMetrics: { at: 1_772_359_201_000, durationMs: 1000 } },
    { ...base, second: 1, clientIndex: 0, phase: 'drain', histogram: histogramOf([400]), clientMetrics: { at: 1_772_359_201_400, durationMs: 400 } },
  ];
  const input: SessionExportInput = { ...storedSingle, runs: [{ ...storedSingle.runs[0]!, seconds }] };
  const lines = sessionHdrLog(input).split('\n').filter((line) => /^\d/.test(line));
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^0\.000,1\.000,5\.003,/, 'max 5000 µs written as 5.003 ms (the bucket edge)');
  assert.match(lines[1]!, /^1\.000,0\.400,0\.400,/);
  const read = readLog(sessionHdrLog(input));
  assert.equal(read.get('NO TAG')?.histogram.totalCount, 5);
});

test('CSV: several clients’ seconds are one row per second, merged exactly; the JSON keeps each client’s own', () => {
  const histogramOf = (latencies: number[]) => {
    const histogram = createLatencyHistogram();
    for (const latency of latencies) recordLatencyUs(histogram, latency);
    return encodeHistogram(histogram);
  };
  const base = storedSingle.runs[0]!.seconds[0]!;
  const part = (clientIndex: number, requests: number, latencies: number[], p99Us: number): RunSecond => ({
    ...base,
    second: 0,
    clientIndex,
    requests,
    scheduled: requests,
    statusClasses: { '2xx': requests },
    p99Us,
    histogram: histogramOf(latencies),
  });
  // 99 fast answers at one client, one slow at the other: p99 of all 100 is a fast one, not the slow client's.
  const seconds = [part(0, 99, Array<number>(99).fill(1000), 1000), part(1, 1, [90_000], 90_000)];
  const input: SessionExportInput = { ...storedSingle, runs: [{ ...storedSingle.runs[0]!, seconds }] };
  const [header, ...lines] = sessionCsv(input).split('\r\n').filter(Boolean).map(cellsOf);
  assert.equal(lines.length, 1);
  const row = Object.fromEntries(lines[0]!.map((cell, i) => [header![i]!, cell]));
  assert.deepEqual([row.second, row.client, row.requests, row.scheduled, row.status_2xx], ['0', 'all', '100', '100', '100']);
  assert.ok(Math.abs(Number(row.p99_us) - 1000) <= 1, `p99 ${row.p99_us}`);
  const json = JSON.parse(sessionJson(input, exportedAt)) as { runs: Array<{ seconds: Array<{ client: number; requests: number }> }> };
  assert.deepEqual(json.runs[0]!.seconds.map((second) => [second.client, second.requests]), [[0, 99], [1, 1]]);
});

test('file names and media types per format', () => {
  const session: Session = { ...storedSingle.session, name: 'Node: hello / world!' };
  const input = { ...storedSingle, session };
  assert.deepEqual(
    (['json', 'csv', 'hdr-log'] as const).map((format) => {
      const file = exportSession(input, format, exportedAt);
      return [file.fileName, file.mediaType];
    }),
    [
      [`benchlab-session-${session.id}-node-hello-world.json`, 'application/json'],
      [`benchlab-session-${session.id}-node-hello-world.csv`, 'text/csv'],
      [`benchlab-session-${session.id}-node-hello-world.hlog`, 'text/plain'],
    ],
  );
});

test('an imported session says where it came from: its provenance in the JSON, a comment in the HdrHistogram log', () => {
  const imported = {
    format: 'wrk',
    source: "wrk's text output",
    resolution: 'wrk prints latency to 10 µs',
    fileName: 'wrk-node.txt',
    importedAt: '2026-03-03T09:00:00.000Z',
    tool: { version: '4.2.0' },
    missing: ['per-second series'],
    absent: {},
  };
  const input: SessionExportInput = { ...storedSingle, session: { ...storedSingle.session, config: { ...storedSingle.session.config, imported } } };
  const document = JSON.parse(sessionJson(input)) as { session: { imported: typeof imported } };
  assert.deepEqual(document.session.imported, { absent: {}, fileName: 'wrk-node.txt', format: 'wrk', importedAt: '2026-03-03T09:00:00.000Z', missing: ['per-second series'], resolution: 'wrk prints latency to 10 µs', source: "wrk's text output", tool: { version: '4.2.0' } });
  assert.ok(sessionHdrLog(input).split('\n').includes('#[Imported from wrk (wrk-node.txt): wrk prints latency to 10 µs]'));
});
