// `benchlab compare A B … [--pdf FILE]`: the Compare page's headline headless. Sessions are named
// by id or by tag (a tag stands for its sessions, oldest first, so the first is the baseline);
// the comparison itself and the PDF come from the same services as the app's.

import { existsSync } from 'node:fs';
import { copyFile, rename, unlink } from 'node:fs/promises';
import { parseArgs as parseRequestArgs } from '../../../app/contract.ts';
import { formatMs, formatValue } from '../../../app/sessions/comparison-report.ts';
import type { Comparison } from '../../../app/sessions/comparison.ts';
import { buildEndpointTable, endpointGcText, type EndpointTable } from '../../../app/sessions/comparison-endpoints.ts';
import { formatBytes } from '../../../app/common/byte-size.ts';
import type { LibraryEntry } from '../../../app/sessions/session-library.ts';
import { CHROMIUM_PATH } from '../../services/services.ts';
import { EXIT, formatTable, stringOption, UsageError, writeJson, type Command, type CommandContext } from '../cli-kit.ts';

/** The Compare page's headline columns, by the comparison's column keys. */
const HEADLINE_COLUMNS = [
  ['rps', 'REQ/S'],
  ['p50', 'P50 MS'],
  ['p99', 'P99 MS'],
  ['max', 'MAX MS'],
  ['failed', 'FAILED'],
  ['notSent', 'NOT SENT'],
] as const;

/** Shown only when a run has them: requests cut off in flight, and the server's peak memory. */
const OPTIONAL_COLUMNS = [
  ['inFlight', 'IN FLIGHT'],
  ['rssMax', 'SERVER RSS'],
] as const;

export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare sessions side by side (by id or tag), optionally as a PDF report',
  usage: `usage: benchlab compare SESSION SESSION... [--title T] [--pdf FILE] [--json]

  SESSION      a session id, or a tag standing for every session with it (oldest first);
               the first session is the baseline of the repeated-runs verdicts
  --title T    the comparison's title (default: the sessions' names)
  --pdf FILE   also write the PDF report there (needs Chromium: BENCHLAB_CHROMIUM or ${CHROMIUM_PATH})
  --json       the whole comparison as JSON (the compare.open result) instead of the tables

  Per step, a row per session: requests/s, p50, p99, max, failed and not-sent requests.
  Sessions that sent different requests (a plan's named requests) also get a table with a row
  per endpoint and a column per server: requests/s, p99, the server's peak memory (RSS) and its
  share of the time in GC pauses and its highest heap after a GC (a JVM's or a Node server's).
  Repeated configurations get the median with its 95 % interval and the verdict against the
  first (a verdict needs 5 runs a side; fewer say "too few runs").`,
  example: `benchlab compare 12 15
benchlab compare baseline nightly --pdf nightly.pdf --title "Nightly vs baseline"`,
  options: {
    json: { type: 'boolean' },
    pdf: { type: 'string' },
    title: { type: 'string' },
  },
  async run(ctx) {
    if (ctx.positionals.length === 0) throw new UsageError('name the sessions to compare: ids or tags');
    const pdf = stringOption(ctx, 'pdf');
    if (pdf && !existsSync(CHROMIUM_PATH)) {
      throw new UsageError(`--pdf needs Chromium, and there is none at ${CHROMIUM_PATH}: install it (apt install chromium) or set BENCHLAB_CHROMIUM to its path`);
    }
    const services = ctx.services();
    const sessionIds = selectSessions(services.compare.library(), ctx.positionals);
    const title = stringOption(ctx, 'title');
    const selection = parseRequestArgs('compare.open', { sessionIds, ...(title !== undefined ? { title } : {}) });
    if (!selection.ok) throw new UsageError(selection.error.message);
    const comparison = services.compare.open(selection.args);
    if (ctx.values.json) writeJson(ctx.stdout, comparison);
    else printComparison(ctx, comparison);
    if (pdf) {
      const exported = await services.reports.export(comparison);
      await moveFile(exported.file, pdf);
      ctx.stderr.write(`wrote ${pdf} (${Math.round(exported.bytes / 1024)} KB)\n`);
    }
    return EXIT.ok;
  },
};

/** Ids as given; each tag expands to its sessions, oldest first; a session named twice counts once. */
export function selectSessions(library: readonly LibraryEntry[], refs: readonly string[]): number[] {
  const ids: number[] = [];
  const add = (id: number) => {
    if (!ids.includes(id)) ids.push(id);
  };
  for (const ref of refs) {
    if (/^\d+$/.test(ref)) {
      add(Number(ref));
      continue;
    }
    const tagged = library.filter((entry) => entry.tags.includes(ref)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
    if (tagged.length === 0) throw new UsageError(`"${ref}" is neither a session id nor a tag of any session`);
    for (const entry of tagged) add(entry.id);
  }
  return ids;
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await unlink(from);
  }
}

function printComparison(ctx: CommandContext, comparison: Comparison): void {
  const out: string[] = [comparison.title, ''];
  const name = (index: number) => {
    const session = comparison.sessions[index];
    return session ? `${session.id} ${session.name}` : `#${index + 1}`;
  };
  const shown = [...HEADLINE_COLUMNS, ...OPTIONAL_COLUMNS.filter(([key]) => comparison.columns.some((column) => column.key === key))];
  const columnIndex = shown.map(([key]) => comparison.columns.findIndex((column) => column.key === key));
  for (const step of comparison.steps) {
    if (comparison.steps.length > 1) out.push(`step ${step.label}`);
    const rows = step.rows.map((row) => [
      `${name(row.session)}${row.steadiness?.steady === false ? ' (not steady)' : ''}`,
      row.status ?? 'completed',
      ...columnIndex.map((index) => {
        if (index < 0) return '-';
        const value = row.values[index] ?? null;
        const column = comparison.columns[index]!;
        return value === null ? '-' : column.unit === 'us' ? formatMs(value) : formatValue(column, value);
      }),
    ]);
    out.push(formatTable(['SESSION', 'STATUS', ...shown.map(([, label]) => label)], rows));
  }
  if (comparison.repeats.some((group) => group.sessions.length > 1)) {
    const interval = (median: number, low: number, high: number, format: (value: number) => string) => `${format(median)} [${format(low)}-${format(high)}]`;
    const rps = (value: number) => formatValue({ unit: 'rps' }, value);
    const rows = comparison.repeats.flatMap((group) =>
      group.steps.map((step) => [
        group.label,
        step.label,
        step.rps.n,
        interval(step.rps.median, step.rps.low, step.rps.high, rps),
        step.p99Us ? interval(step.p99Us.median, step.p99Us.low, step.p99Us.high, formatMs) : '-',
        step.rpsVsBaseline?.text ?? 'baseline',
        step.p99VsBaseline?.text ?? 'baseline',
      ]),
    );
    out.push('repeated runs (median, 95 % interval)');
    out.push(formatTable(['CONFIGURATION', 'STEP', 'RUNS', 'REQ/S', 'P99 MS', 'REQ/S VS FIRST', 'P99 VS FIRST'], rows));
  }
  // Loads that differ (a think time, a step, a request) are said, so unlike runs are not read as repeats.
  if (new Set(comparison.sessions.map((session) => session.configuration)).size > 1) {
    out.push('', 'loads differ:', ...comparison.sessions.map((session, index) => `  ${name(index)}: ${session.configuration}`));
  }
  out.push(...endpointLines(comparison));
  ctx.stdout.write(`${out.join('\n').trimEnd()}\n`);
  for (const warning of comparison.warnings) ctx.stderr.write(`warning: ${warning}\n`);
}

/** Sessions of different requests: a row per endpoint, a column per server (req/s, p99, RSS, GC), as Compare shows them. */
function endpointLines(comparison: Comparison): string[] {
  const table = buildEndpointTable(comparison);
  if (!table) return [];
  const stepped = table.rows.some((row) => row.step !== null);
  const cell = (entry: EndpointTable['rows'][number]['cells'][number]) => {
    if (entry === null) return 'not run';
    const rps = entry.rps === null ? '-' : formatValue({ unit: 'rps' }, entry.rps);
    const p99 = entry.p99Us === null ? '-' : `${formatMs(entry.p99Us)} ms`;
    const memory = table.memory ? [entry.rssMaxBytes === null ? 'RSS -' : `RSS ${formatBytes(entry.rssMaxBytes)}`] : [];
    return [`${rps}/s`, `p99 ${p99}`, ...memory, ...(table.gc ? [endpointGcText(entry).replace('—', '-')] : [])].join(', ');
  };
  const rows = table.rows.map((row) => [`${row.endpoint}${row.endpoint === row.request ? '' : ` (${row.request})`}`, ...(stepped ? [row.step ?? ''] : []), ...row.cells.map(cell)]);
  return ['per endpoint (req/s, p99' + (table.memory ? ', server RSS max' : '') + (table.gc ? ', GC time and heap after GC' : '') + ')', formatTable(['ENDPOINT', ...(stepped ? ['STEP'] : []), ...table.servers.map((server) => server.label.toUpperCase())], rows)];
}
