// `benchlab import FILE --format F`: another load tool's results file as a stored session marked
// "imported from F", streamed line by line (files up to 512 MiB), exactly as the Sessions page's
// import stores it (SessionImporter). Quiet: one line naming the new session on stdout, what the
// file did not carry on stderr; --json prints the session.

import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { formatMs } from '../../../app/sessions/comparison-report.ts';
import { IMPORT_FORMATS, IMPORTERS, isImportFormat, sniffFormat } from '../../../app/sessions/importers/index.ts';
import { importProvenanceOf } from '../../../app/sessions/importers/imported-result.ts';
import { Tags } from '../../../app/sessions/session-library.ts';
import { SessionName } from '../../../app/runs/session-identity.ts';
import { EXIT, listOption, stringOption, UsageError, writeJson, type Command, type CommandContext } from '../cli-kit.ts';
import { messageOf } from '../../../app/common/errors.ts';

const FORMAT_LINES = IMPORT_FORMATS.map((format) => `                 ${format.padEnd(7)} ${IMPORTERS[format].accepts}`).join('\n');

export const importCommand: Command = {
  name: 'import',
  summary: "store another load tool's results file as a session",
  usage: `usage: benchlab import FILE --format ${IMPORT_FORMATS.join('|')} [--report FILE] [--name NAME] [--tag TAG]... [--json]

  FILE           the results file (up to 512 MiB; per-request files are read line by line)
  --format F     what the file is:
${FORMAT_LINES}
  --report FILE  with ab's -g file: ab's text report of the same run, for its elapsed time
  --name NAME    the session's name (default: "<file> (imported from <format>)")
  --tag TAG      a tag for the session; repeat for more
  --json         print the stored session as JSON

Per-request files give Benchlab's own per-second series and histogram; summary-only ones
(wrk and ab text, k6's summary, oha) keep the figures the tool printed, and say what is
missing. Latencies keep the tool's resolution.`,
  example: `benchlab import results.txt --format wrk --name "nginx c=100" --tag baseline
benchlab import k6-points.json --format k6 --json`,
  options: {
    format: { type: 'string' },
    report: { type: 'string' },
    name: { type: 'string' },
    tag: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  },
  async run(ctx) {
    const [file, extra] = ctx.positionals;
    if (!file) throw new UsageError('missing the results FILE');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    // Read first: an unreadable file is bad input (exit 2), and its first lines tell a missing --format.
    const format = formatOf(ctx, file, await firstLines(file));
    const name = optionalParse(SessionName, stringOption(ctx, 'name'), '--name');
    const tags = optionalParse(Tags, listOption(ctx, 'tag'), '--tag');
    const reportPath = stringOption(ctx, 'report');
    if (reportPath !== undefined && format !== 'ab') throw new UsageError("--report goes with ab's -g file (--format ab)");
    const session = await ctx.services().imports.importFile(file, { format, fileName: basename(file), name, tags, reportPath });
    if (ctx.values.json) {
      writeJson(ctx.stdout, session);
      return EXIT.ok;
    }
    const run = ctx.services().runs.list(session.id)[0];
    const summary = run?.summary;
    const figures = summary ? `: ${summary.requests} requests, ${summary.requestsPerSecond.toFixed(1)} req/s, p99 ${summary.p99Us === null ? '—' : `${formatMs(summary.p99Us)} ms`}` : '';
    ctx.stdout.write(`session ${session.id} “${session.name}”${figures}\n`);
    for (const line of importProvenanceOf(session.config)?.missing ?? []) ctx.stderr.write(`benchlab import: not in the file: ${line}\n`);
    return EXIT.ok;
  },
};

/** --format, checked; when missing, the file's first lines may say which it is. */
function formatOf(ctx: CommandContext, file: string, lines: string[]) {
  const format = stringOption(ctx, 'format');
  if (format !== undefined) {
    if (!isImportFormat(format)) throw new UsageError(`--format must be one of ${IMPORT_FORMATS.join(', ')}, got "${format}"`);
    return format;
  }
  const sniffed = sniffFormat(lines);
  throw new UsageError(`--format is required (one of ${IMPORT_FORMATS.join(', ')})${sniffed ? `; ${basename(file)} looks like ${sniffed.what}: --format ${sniffed.format}` : ''}`);
}

async function firstLines(file: string): Promise<string[]> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? messageOf(error)}`);
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16 * 1024), 0, 16 * 1024, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').split('\n').filter((line) => line.trim() !== '').slice(0, 12);
  } finally {
    await handle.close();
  }
}

function optionalParse<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } } }, value: unknown, option: string): T | undefined {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${option} ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
  return parsed.data;
}
