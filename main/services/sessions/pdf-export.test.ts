import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSeeder } from '../../../tests/support/session-seed.ts';
import { SessionsRepository } from '../runs/sessions-repository.ts';
import { ComparisonService } from './comparison-service.ts';
import { ReportExporter } from './pdf-export.ts';
import { renderReportHtml } from '../../../app/sessions/comparison-report.ts';
import { headingsOf, orphanHeadings, pdfPages } from '../../../tests/support/pdf-layout.ts';
import { openTestDatabase } from '../../../tests/support/test-database.ts';
import { publishedReportChapters } from '../plans/study-catalog.ts';

const { db, dir } = openTestDatabase('pdf');

test('a comparison prints to a PDF holding names, figures, system info and notes; a page renders', async () => {
  const seeder = createSeeder(db);
  const a = seeder.session({ name: 'Tomcat NIO <script>', templateId: 'tomcat', variant: 'nio', rps: 1234, latencyUs: 3000, seconds: 20, sweep: [10, 100], notes: 'tuned preset applied' });
  const b = seeder.session({ name: 'Undertow handler', templateId: 'undertow', rps: 4321, latencyUs: 900, seconds: 20, sweep: [10, 100], serverInfo: { cpuCores: 4 } });
  const comparison = new ComparisonService({ db, sessions: new SessionsRepository(db) }).open({ sessionIds: [a.sessionId, b.sessionId], title: 'Tomcat vs Undertow' });
  const exporter = new ReportExporter({ folder: join(dir, 'reports') });
  const result = await exporter.export(comparison, { notes: 'Report note: same lab, same preset.' });
  assert.ok(existsSync(result.file));
  assert.equal(statSync(result.file).size, result.bytes);
  assert.deepEqual(readdirSync(join(dir, 'reports')).filter((name) => name.endsWith('.part')), []);

  const text = execFileSync('pdftotext', ['-layout', result.file, '-'], { encoding: 'utf8' });
  for (const expected of ['Tomcat vs Undertow', 'Tomcat NIO <script>', 'Undertow handler', 'c=10, 20 s', 'c=100, 20 s', 'Requests/s', 'p99', 'Not comparable: the server hosts differ in cores', 'Report note: same lab, same preset.', 'tuned preset applied', 'Latency distribution']) {
    assert.ok(text.includes(expected), `the PDF text holds ${expected}`);
  }
  // The hosts section lists the facts that differ (the cores) and counts those alike (the kernel, the sysctls).
  assert.match(text, /facts? identical in every session \(not listed\)/);
  assert.ok(!text.includes('net.ipv4.tcp_tw_reuse') && !text.includes('6.12.38+deb13-amd64'), 'facts alike in both sessions are not listed');
  const rps = comparison.columns.findIndex((column) => column.key === 'rps');
  const figure = Math.round(comparison.steps[0]!.rows[1]!.values[rps]!).toLocaleString('en-US');
  assert.ok(text.includes(figure), `the PDF holds Undertow's requests/s ${figure}`);

  // The first page answers the question: both configurations by letter, the headline and its verdict, the warning, the notes.
  const [first] = pdfPages(result.file);
  for (const expected of ['Tomcat vs Undertow', 'What was compared', 'Headline', 'undertow', 'nio', 'seed-client → seed-server', 'Requests/s: B is', 'too few runs for a verdict', 'Not comparable: the server hosts differ in cores', 'Report note: same lab, same preset.']) {
    assert.ok(first!.includes(expected), `the first page holds ${expected}`);
  }
  assert.doesNotMatch(text, /durationS|warmupS|sweep \[/);

  const prefix = join(dir, 'page');
  execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', result.file, prefix]);
  const page = readdirSync(dir).find((name) => name.startsWith('page') && name.endsWith('.png'));
  assert.ok(page, 'pdftoppm rendered the first page');
  assert.ok(statSync(join(dir, page)).size > 5000);
});

test('layout: no heading is the last line of its page, over a long comparison of many steps and sessions', async () => {
  const seeder = createSeeder(db, { client: 'layout-client', server: 'layout-server' });
  const ids = ['Jetty blocking', 'Jetty async', 'Spring Boot sync', 'Spring Boot webflux'].map(
    (name, i) => seeder.session({ name, templateId: name.toLowerCase().replace(/ /g, '-'), rps: 1000 * (i + 1), latencyUs: 2000 / (i + 1), seconds: 8, sweep: [10, 50, 100, 200, 400, 800], serverInfo: { cpuCores: 2 + (i % 2) * 2 }, histogramPool: 4 }).sessionId,
  );
  const comparison = new ComparisonService({ db, sessions: new SessionsRepository(db) }).open({ sessionIds: ids, title: 'Four servers over a six-step sweep' });
  const result = await new ReportExporter({ folder: join(dir, 'reports') }).export(comparison, { notes: 'Layout check.' });
  const pages = pdfPages(result.file);
  assert.ok(pages.length >= 4, `a long report (${pages.length} pages)`);
  assert.deepEqual(orphanHeadings(pages, headingsOf(renderReportHtml(comparison, { generatedAt: new Date() }))), []);
  // Every step's latency distribution is drawn, not only the first.
  for (const step of comparison.steps) assert.ok(pages.some((page) => page.includes(`Latency distribution, ${step.label}`)), step.label);
});

test('delivery: download returns the PDF\'s bytes, the save dialog gets a copy where it says, and without a dialog that is refused', async () => {
  const seeder = createSeeder(db, { client: 'd-client', server: 'd-server' });
  const ids = ['One', 'Two'].map((name) => seeder.session({ name, rps: 100, latencyUs: 1000, seconds: 2 }).sessionId);
  const comparison = new ComparisonService({ db, sessions: new SessionsRepository(db) }).open({ sessionIds: ids });
  const fakePdf = new Uint8Array([37, 80, 68, 70, 45]);
  const exporter = new ReportExporter({ folder: join(dir, 'delivered'), renderer: async () => fakePdf });
  const downloaded = await exporter.export(comparison, { deliver: 'download' });
  assert.deepEqual(Buffer.from(downloaded.content!, 'base64'), Buffer.from(fakePdf));
  assert.ok(existsSync(downloaded.file), 'a copy kept in the data dir');
  assert.ok(downloaded.file.endsWith(downloaded.fileName));

  await assert.rejects(exporter.export(comparison, { deliver: 'save-dialog' }), /no save dialog/);
  const chosen = join(dir, 'chosen.pdf');
  const asked: string[] = [];
  exporter.useSaveDialog(async (name) => (asked.push(name), chosen));
  const saved = await exporter.export(comparison, { deliver: 'save-dialog' });
  assert.equal(saved.savedTo, chosen);
  assert.equal(saved.content, null);
  assert.deepEqual(asked, [saved.fileName]);
  assert.deepEqual(readFileSync(chosen), Buffer.from(fakePdf));
  exporter.useSaveDialog(async () => null);
  assert.equal((await exporter.export(comparison, { deliver: 'save-dialog' })).savedTo, null, 'cancelled: kept in the data dir only');
});

test("a study's sessions print the seed's published table with Benchlab's rows under it, and the per-endpoint table", async () => {
  const seeder = createSeeder(db, { client: 'study-client', server: 'study-server' });
  const tags = ['ab-fixed-count'];
  const ids = [
    seeder.session({ name: 'ab seed — apache', templateId: 'apache-static', variant: 'mpm_event', rps: 2100, latencyUs: 40_000, seconds: 4, tags }).sessionId,
    seeder.session({ name: 'ab seed — node', templateId: 'node', variant: 'async', rps: 1700, latencyUs: 52_000, seconds: 4, tags }).sessionId,
    seeder.session({ name: 'ab seed — node fib', templateId: 'node', variant: 'async', rps: 90, latencyUs: 900_000, seconds: 4, tags, path: '/fib?n=30' }).sessionId,
  ];
  const comparison = new ComparisonService({ db, sessions: new SessionsRepository(db) }).open({ sessionIds: ids, title: 'ab seed' });
  const exporter = new ReportExporter({ folder: join(dir, 'study-reports'), chapters: (c) => publishedReportChapters(c) });
  const result = await exporter.export(comparison);
  const pages = pdfPages(result.file);
  const published = pages.find((page) => page.includes("The seed's published figures beside Benchlab's"));
  assert.ok(published, 'a page of the published figures');
  // The seed's Apache row (ab's 3785.48 req/s) and, under it, Benchlab's run of its template.
  const lines = published.split('\n');
  const seedApache = lines.findIndex((line) => line.includes('seed: Apache 2.2.20') && line.includes('3785.48'));
  assert.ok(seedApache >= 0, published);
  assert.match(lines.slice(seedApache + 1).find((line) => line.trim() !== '')!, /Benchlab: A · apache-static/);
  assert.ok(pages.some((page) => page.includes("The seed's other figures") && page.includes('connect mean (ms)')));
  const endpoints = pages.find((page) => page.includes('Results per endpoint'));
  assert.ok(endpoints && endpoints.includes('GET /fib?n=30') && endpoints.includes('GET /hello'), 'the per-endpoint table names both requests');

  // Sessions of no study print no published chapter.
  const plain = new ComparisonService({ db, sessions: new SessionsRepository(db) }).open({ sessionIds: ids.slice(0, 2).map((id) => seeder.session({ name: `plain ${id}`, rps: 100, latencyUs: 1000, seconds: 2 }).sessionId) });
  assert.deepEqual(await publishedReportChapters(plain), []);
});
