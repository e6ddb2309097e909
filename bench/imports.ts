// How fast the largest per-request formats import, and at what peak memory: a file of about 200 MB
// each of vegeta's CSV, ab's -g TSV as ab writes it (sorted by response time, so in no time order)
// and hey's CSV, made from the real tools' fixtures (their lines repeated over later seconds, at
// about 10,000 requests/s so that the file's size, not its seconds, sets the cost), each
// imported by a real `benchlab import` process into a fresh data dir. Its peak resident memory is
// the process's own (getrusage at exit), beside `wc -l` reading the same file, the floor.

import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const CLI = join(import.meta.dirname, '..', 'main', 'cli', 'benchlab.ts');
const FIXTURES = join(import.meta.dirname, '..', 'tests', 'fixtures', 'imports', 'tools');
/** Printed at exit by the imported process: its peak resident memory in KiB and its CPU time in µs (on a busy machine wall time says little). */
const REPORT_USAGE = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('peak-rss-kib '+u.maxRSS+' cpu-us '+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;

export interface ImportFigures {
  format: string;
  fileMb: number;
  lines: number;
  seconds: number;
  mbPerSecond: number;
  /** CPU seconds of the import past those of importing a one-line file (the process's start). */
  cpuSeconds: number;
  mbPerCpuSecond: number;
  peakRssMb: number;
  wcMs: number;
}

interface Run {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

function importRun(file: string, format: string, dataDir: string, home: string): Run {
  const start = performance.now();
  const result = spawnSync(process.execPath, ['--import', REPORT_USAGE, CLI, 'import', file, '--format', format, '--data-dir', dataDir], { encoding: 'utf8', env: { ...process.env, HOME: home } });
  const seconds = (performance.now() - start) / 1000;
  if (result.status !== 0) throw new Error(`benchlab import --format ${format} exited ${result.status}: ${result.stderr.slice(0, 400)}`);
  const usage = /peak-rss-kib (\d+) cpu-us (\d+)/.exec(result.stderr);
  return { seconds, cpuSeconds: Number(usage?.[2] ?? Number.NaN) / 1e6, peakRssMb: (Number(usage?.[1] ?? Number.NaN) * 1024) / 1e6 };
}

async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/** Writes `header` (when there is one), then passes 0, 1, … of `linesOf` until `bytes` are written; resolves with the lines of the passes. */
async function writePasses(path: string, header: string | null, bytes: number, linesOf: (pass: number) => string[]): Promise<number> {
  const stream = createWriteStream(path);
  if (header !== null) await write(stream, `${header}\n`);
  let written = 0;
  let count = 0;
  for (let pass = 0; written < bytes; pass++) {
    const lines = linesOf(pass);
    const chunk = `${lines.join('\n')}\n`;
    await write(stream, chunk);
    written += chunk.length;
    count += lines.length;
  }
  stream.end();
  await once(stream, 'finish');
  return count;
}

/** vegeta's CSV lines again and again: the fixture's 400 requests 40 ms apart each pass. */
function vegetaFile(path: string, bytes: number): Promise<number> {
  const lines = readFileSync(join(FIXTURES, 'vegeta.csv'), 'utf8').trim().split('\n');
  const first = BigInt(lines[0]!.slice(0, lines[0]!.indexOf(',')));
  return writePasses(path, null, bytes, (pass) => lines.map((line, i) => `${first + BigInt(pass) * 40_000_000n + BigInt(i) * 100_000n}${line.slice(line.indexOf(','))}`));
}

/** ab's -g lines as ab writes them, by response time: the fixture's times in order, starts spread over 600 s (7,000 lines/s at 200 MB). */
async function abFile(path: string, bytes: number): Promise<number> {
  const [header, ...rows] = readFileSync(join(FIXTURES, 'ab-g.tsv'), 'utf8').trim().split('\n');
  const fields = rows.map((row) => row.split('\t'));
  const first = Math.min(...fields.map((f) => Number(f[1])));
  const repeats = Math.ceil(bytes / (rows.join('\n').length + rows.length));
  const stream = createWriteStream(path);
  await write(stream, `${header}\n`);
  let count = 0;
  // fields are sorted by ttime already (ab's order): each line is written `repeats` times in a row.
  for (const [index, f] of fields.entries()) {
    const lines: string[] = [];
    for (let r = 0; r < repeats; r++) {
      const start = first + ((index * 7919 + r * 104_729) % 600);
      lines.push(`${f[0]}\t${start}\t${f[2]}\t${f[3]}\t${f[4]}\t${f[5]}`);
    }
    await write(stream, `${lines.join('\n')}\n`);
    count += repeats;
  }
  stream.end();
  await once(stream, 'finish');
  return count;
}

/** hey's CSV lines again and again: the fixture's 1,000 requests 0.1 ms apart each pass. */
function heyFile(path: string, bytes: number): Promise<number> {
  const [header, ...rows] = readFileSync(join(FIXTURES, 'hey.csv'), 'utf8').trim().split('\n');
  const offsets = rows.map((_, i) => i / 10_000);
  const span = rows.length / 10_000;
  return writePasses(path, header!, bytes, (pass) => rows.map((row, i) => `${row.slice(0, row.lastIndexOf(',') + 1)}${(offsets[i]! + pass * span).toFixed(4)}`));
}

const MAKERS = { vegeta: vegetaFile, ab: abFile, hey: heyFile } as const;

/** Each format's ~`megabytes` file imported by a real CLI process. */
export async function benchImports(megabytes = 200): Promise<ImportFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-bench-imports-'));
  const figures: ImportFigures[] = [];
  try {
    const baseline = importRun(join(FIXTURES, 'bombardier.json'), 'bombardier', join(dir, 'data-baseline'), dir);
    for (const [format, make] of Object.entries(MAKERS)) {
      const file = join(dir, `${format}.results`);
      const lines = await make(file, megabytes * 1e6);
      const fileMb = statSync(file).size / 1e6;
      const wcStart = performance.now();
      spawnSync('wc', ['-l', file]);
      const wcMs = performance.now() - wcStart;
      const run = importRun(file, format, join(dir, `data-${format}`), dir);
      figures.push({ format, fileMb, lines, seconds: run.seconds, mbPerSecond: fileMb / run.seconds, cpuSeconds: run.cpuSeconds - baseline.cpuSeconds, mbPerCpuSecond: fileMb / (run.cpuSeconds - baseline.cpuSeconds), peakRssMb: run.peakRssMb, wcMs });
      rmSync(file, { force: true });
      rmSync(join(dir, `data-${format}`), { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

if (import.meta.main) {
  for (const figure of await benchImports(Number(process.argv[2] ?? 200))) console.log(figure);
}
