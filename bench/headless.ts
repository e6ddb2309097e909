// Figures of the command line (issue "Headless Benchlab"): what a CI job pays to start the CLI
// (beside a bare `node` start, the floor), how fast a per-request results file imports (beside
// `wc -l` reading the same file, the I/O floor), and how long the exports of an hour-long session
// take. Each through the real CLI process or service on a real SQLite file.

import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import { createServices } from '../main/services/services.ts';
import { createSeeder } from '../tests/support/session-seed.ts';
import { median } from '../app/common/median.ts';

const CLI = join(import.meta.dirname, '..', 'main', 'cli', 'benchlab.ts');

/** Wall time of a command, ms; throws when it fails so a broken CLI never prints a fast figure. */
function timed(command: string, args: string[]): number {
  const started = performance.now();
  const result = spawnSync(command, args, { encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr.slice(0, 400)}`);
  return elapsed;
}

/** A per-request results file in hey's CSV shape: `requests` answers over ~`requests / 5000` seconds. */
async function writeHeyCsv(file: string, requests: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n');
  let seed = 7;
  for (let i = 0; i < requests; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const latency = 0.0005 + (seed / 2 ** 31) * 0.004;
    const line = `${latency.toFixed(4)},0.0000,0.0000,0.0000,${(latency - 0.0001).toFixed(4)},0.0001,200,${(i / 5000).toFixed(4)}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function benchHeadless(options: { importRequests?: number; rounds?: number } = {}) {
  const importRequests = options.importRequests ?? 1_000_000;
  const rounds = options.rounds ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-bench-headless-'));
  try {
    const dataDir = join(dir, 'data');
    const services = createServices({ dataDir, transport: 'cli', version: 'bench' });
    let exportsMs: Record<'json' | 'csv' | 'hdr-log', number>;
    try {
      const seeder = createSeeder(services.db);
      for (let i = 0; i < 50; i++) seeder.session({ name: `bench ${i}`, rps: 5000 + i, latencyUs: 900 + i, seconds: 30 });
      const hour = seeder.session({ name: 'an hour', rps: 5000, latencyUs: 1000, seconds: 3600 }).sessionId;
      exportsMs = { json: 0, csv: 0, 'hdr-log': 0 };
      for (const format of ['json', 'csv', 'hdr-log'] as const) {
        const started = performance.now();
        services.exports.export(hour, format);
        exportsMs[format] = performance.now() - started;
      }
    } finally {
      await services.close();
    }

    const nodeStartMs = median(Array.from({ length: rounds }, () => timed(process.execPath, ['-e', ''])));
    const listMs = median(Array.from({ length: rounds }, () => timed(process.execPath, [CLI, '--data-dir', dataDir, 'sessions', 'list', '--json'])));

    const file = join(dir, 'results.csv');
    await writeHeyCsv(file, importRequests);
    const wcMs = timed('wc', ['-l', file]);
    const importMs = timed(process.execPath, [CLI, '--data-dir', dataDir, 'import', file, '--format', 'hey']);
    return {
      nodeStartMs,
      listMs,
      importRequests,
      importFileMiB: statSync(file).size / 2 ** 20,
      importMs,
      wcMs,
      exportsMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
