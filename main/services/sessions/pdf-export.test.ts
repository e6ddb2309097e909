import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createSeeder } from '../../../tests/support/session-seed.ts';
import { openDatabase } from '../store/database.ts';
import { SessionsRepository } from './sessions-repository.ts';
import { ComparisonService } from './comparison-service.ts';
import { ReportExporter } from './pdf-export.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-pdf-'));
const { db } = openDatabase(dir);
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

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
  for (const expected of ['Tomcat vs Undertow', 'Tomcat NIO <script>', 'Undertow handler', 'c=10, 20 s', 'c=100, 20 s', 'Requests/s', 'p99', 'Not comparable: the server hosts differ in cores', 'net.ipv4.tcp_tw_reuse', '6.12.38+deb13-amd64', 'Report note: same lab, same preset.', 'tuned preset applied', 'Latency distribution']) {
    assert.ok(text.includes(expected), `the PDF text holds ${expected}`);
  }
  const rps = comparison.columns.findIndex((column) => column.key === 'rps');
  const figure = Math.round(comparison.steps[0]!.rows[1]!.values[rps]!).toLocaleString('en-US');
  assert.ok(text.includes(figure), `the PDF holds Undertow's requests/s ${figure}`);

  const prefix = join(dir, 'page');
  execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', result.file, prefix]);
  const page = readdirSync(dir).find((name) => name.startsWith('page') && name.endsWith('.png'));
  assert.ok(page, 'pdftoppm rendered the first page');
  assert.ok(statSync(join(dir, page)).size > 5000);
});
