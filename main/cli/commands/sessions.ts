// `benchlab sessions list|show|tag|rm|export`: the Sessions page headless, over the same library,
// runs and exports as the app. A session's headline figures are those of its best step
// (app/sessions/best-step.ts: the most requests/s among the completed steps without signs of
// saturation), named in the STEP column, so a listing reads like the Sessions page at a glance.

import { describeCalibration, describeRamp, recordedCalibrationOf } from '../../../app/runs/calibration-record.ts';
import { sessionRequestOf } from '../../../app/sessions/comparison-endpoints.ts';
import { writeFile } from 'node:fs/promises';
import { formatMs, formatValue } from '../../../app/sessions/comparison-report.ts';
import { filterLibrary, headlineStepText, Tags } from '../../../app/sessions/session-library.ts';
import { importProvenanceOf } from '../../../app/sessions/importers/imported-result.ts';
import { describeConfiguration } from '../../../app/sessions/comparison.ts';
import { formatBytes } from '../../../app/common/byte-size.ts';
import { SessionExportFormat } from '../../../app/sessions/sessions-contract.ts';
import { describeLatencyIncludes, modelOf, phasesText } from '../../../app/runs/latency-includes.ts';
import type { StoredRun } from '../../../app/runs/runs.ts';
import { storedServerMemory } from '../../../app/runs/server-memory.ts';
import type { SessionHostFacts } from '../../../app/hosts/host-facts.ts';
import { presetEffectsOf } from '../../../app/sessions/host-diff.ts';
import { EXIT, formatTable, intOption, stringOption, UsageError, verbOf, writeJson, type Command, type CommandContext } from '../cli-kit.ts';

const VERBS = ['list', 'show', 'tag', 'rm', 'export'] as const;
const DEFAULT_LIMIT = 20;

export const sessionsCommand: Command = {
  name: 'sessions',
  summary: 'list, show, tag, delete and export stored sessions',
  usage: `usage: benchlab sessions list [--tag TAG] [--limit N] [--json]
       benchlab sessions show ID [--json]
       benchlab sessions tag ID +TAG... -TAG...
       benchlab sessions rm ID... --yes
       benchlab sessions export ID --format json|csv|hdr-log [--out FILE]

  list           newest first: status, templates, and the figures of each session's
                 best step (the most requests/s among the steps that completed without
                 signs of saturation), which STEP names
    --tag TAG    only sessions with this tag
    --limit N    at most N sessions (default ${DEFAULT_LIMIT})
  show           the session (its load in words, think time included) and a row per
                 run (sweep step, repeat) with its status,
                 requests in flight when cut short and the server's memory (RSS)
  tag            add (+TAG) and remove (-TAG) tags
  rm             delete sessions and everything recorded in them
    --yes        required: deleting cannot be undone
  export         the session as a file
    --format F   json (everything), csv (per second) or hdr-log (HdrHistogram interval log)
    --out FILE   write there instead of stdout
  --json         machine-readable output`,
  example: `benchlab sessions list --tag nightly --limit 5
benchlab sessions tag 12 +baseline -draft
benchlab sessions export 12 --format hdr-log --out node-async.hlog`,
  options: {
    json: { type: 'boolean' },
    tag: { type: 'string' },
    limit: { type: 'string' },
    yes: { type: 'boolean' },
    format: { type: 'string' },
    out: { type: 'string' },
  },
  dashedPositionals: true,
  async run(ctx) {
    const verb = verbOf(ctx, VERBS);
    const args = ctx.positionals.slice(1);
    if (verb === 'list') return list(ctx, args);
    if (verb === 'show') return show(ctx, args);
    if (verb === 'tag') return tag(ctx, args);
    if (verb === 'rm') return remove(ctx, args);
    return exportSession(ctx, args);
  },
};

export function sessionId(text: string | undefined): number {
  if (text === undefined) throw new UsageError('missing the session ID');
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new UsageError(`"${text}" is not a session ID (a number, see benchlab sessions list)`);
  return Number(text);
}

function noExtra(args: string[]): void {
  if (args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
}

function when(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

const rate = (value: number | null | undefined) => (value === null || value === undefined ? '-' : formatValue({ unit: 'rps' }, value));
const ms = (us: number | null | undefined) => (us === null || us === undefined ? '-' : formatMs(us));
const count = (value: number | null | undefined) => (value === null || value === undefined ? '-' : formatValue({ unit: 'count' }, value));

async function list(ctx: CommandContext, args: string[]): Promise<number> {
  noExtra(args);
  const limit = intOption(ctx, 'limit', 1, 100_000) ?? DEFAULT_LIMIT;
  const tagFilter = stringOption(ctx, 'tag');
  const services = ctx.services();
  const entries = filterLibrary(services.compare.library(), tagFilter ? { tag: tagFilter } : {}).slice(0, limit);
  if (ctx.values.json) {
    writeJson(ctx.stdout, entries);
    return EXIT.ok;
  }
  if (entries.length === 0) {
    ctx.stderr.write(tagFilter ? `no sessions tagged "${tagFilter}"\n` : 'no sessions stored yet\n');
    return EXIT.ok;
  }
  const rows = entries.map((entry) => [
    entry.id,
    entry.name,
    entry.status,
    entry.templates.join(',') || '-',
    rate(entry.headline?.requestsPerSecond),
    ms(entry.headline?.p99Us),
    count(entry.headline?.failed),
    entry.headline ? (headlineStepText(entry.headline) ?? 'its only run') : '-',
    entry.tags.join(',') || '-',
    when(entry.startedAt ?? entry.createdAt),
  ]);
  ctx.stdout.write(formatTable(['ID', 'NAME', 'STATUS', 'TEMPLATES', 'REQ/S', 'P99 MS', 'FAILED', 'STEP', 'TAGS', 'DATE'], rows));
  return EXIT.ok;
}

function stepLabel(run: StoredRun): string {
  return typeof run.step.label === 'string' ? run.step.label : `step ${run.ordinal}`;
}

/** Each host's preset as the session ran with it: its keys as they took effect (what was asked where not). */
function presetFacts(facts: SessionHostFacts | null): string[][] {
  if (!facts) return [];
  const hosts = [...(facts.server ? [facts.server] : []), ...facts.clients];
  return hosts.flatMap((host) => {
    const preset = host.preset;
    if (preset.applied.length === 0 && preset.pending.length === 0) return [];
    const keys = presetEffectsOf(host) ?? 'keys in effect not recorded (older session)';
    return [[`preset (${host.role} ${host.hostName})`, `${[...preset.applied, ...preset.pending.map((name) => `${name} (pending)`)].join(', ')}: ${keys}`]];
  });
}

function calibrationFacts(config: Record<string, unknown>): string[][] {
  const calibration = recordedCalibrationOf(config);
  if (!calibration) return [];
  return [
    ['steps', describeCalibration(calibration)],
    ['calibration', `ramp ${describeRamp(calibration.ramp)}; probe and ramp: sessions ${calibration.sessionIds.join(', ')}`],
  ];
}

async function show(ctx: CommandContext, args: string[]): Promise<number> {
  const id = sessionId(args[0]);
  noExtra(args.slice(1));
  const services = ctx.services();
  const session = services.sessions.get(id);
  const runs = services.runs.list(id);
  if (ctx.values.json) {
    writeJson(ctx.stdout, { session, runs });
    return EXIT.ok;
  }
  const hostName = (hostId: number | null) => (hostId === null ? '-' : (services.hosts.nameOf(hostId) ?? `host ${hostId} (removed)`));
  const facts = [
    ['session', `${session.id} ${session.name}`],
    ['status', session.status],
    ['hosts', `${hostName(session.clientHostId)} → ${hostName(session.serverHostId)}`],
    ...requestFact(session.config),
    ['started', session.startedAt ? when(session.startedAt) : '-'],
    // The load as configured (its think time included): what makes runs comparable.
    ['load', describeConfiguration(session.config)],
    // Steps chosen as multiples of a capacity measured first: which, where and when.
    ...calibrationFacts(session.config),
    ['tags', session.tags.join(', ') || '-'],
    ...(session.notes ? [['notes', session.notes.replace(/\s*\n\s*/g, ' ')]] : []),
  ];
  facts.push(...presetFacts(services.snapshots.forSession(session.id)));
  const width = Math.max(...facts.map(([label]) => label!.length));
  ctx.stdout.write(`${facts.map(([label, value]) => `${label!.padEnd(width)}  ${value}`).join('\n')}\n\n`);
  if (runs.length === 0) {
    ctx.stdout.write('no runs recorded\n');
    return EXIT.ok;
  }
  // An imported file that cannot tell a figure shows "-", as Compare shows "—" (ab's -g has no failures).
  const absent = importProvenanceOf(session.config)?.absent ?? {};
  const rows = runs.map((run) => {
    const summary = run.summary;
    const notSent = summary?.books && absent.notSent === undefined ? summary.books.notSent : null;
    // A summary stored before the memory was kept reads it from the stored seconds, as Compare does; none says why.
    const memory = storedServerMemory(summary, () => services.samples.withoutHistograms(run.id, { measured: true }));
    return [
      run.ordinal,
      run.variant ? `${run.templateId}:${run.variant}` : run.templateId,
      stepLabel(run),
      run.status,
      rate(summary?.requestsPerSecond),
      ms(summary?.p50Us),
      ms(summary?.p99Us),
      ms(summary?.maxUs),
      count(absent.failed === undefined ? summary?.failed : null),
      count(notSent),
      count(summary?.books && absent.notSent === undefined ? summary.books.inFlight : null),
      typeof memory === 'string' ? memory : `${formatBytes(memory.minBytes)} / ${formatBytes(memory.maxBytes)} / ${formatBytes(memory.endBytes)}`,
    ];
  });
  ctx.stdout.write(formatTable(['#', 'TEMPLATE', 'STEP', 'STATUS', 'REQ/S', 'P50 MS', 'P99 MS', 'MAX MS', 'FAILED', 'NOT SENT', 'IN FLIGHT', 'SERVER RSS MIN/MAX/END'], rows));
  // Each run's phases as ab's report gives them (ms), and what its latency includes.
  for (const run of runs) {
    const phases = run.summary?.phases;
    if (!phases) continue;
    const lines = [`run ${run.ordinal} (${stepLabel(run)}), ms:`, ...phasesText(phases).map((line) => `  ${line}`), `  ${describeLatencyIncludes(phases, modelOf(run.step))}`];
    ctx.stdout.write(`\n${lines.join('\n')}\n`);
  }
  return EXIT.ok;
}

async function tag(ctx: CommandContext, args: string[]): Promise<number> {
  const id = sessionId(args[0]);
  const edits = args.slice(1);
  if (edits.length === 0) throw new UsageError('say which tags to add (+TAG) or remove (-TAG)');
  const add: string[] = [];
  const drop: string[] = [];
  for (const edit of edits) {
    if (edit.length < 2 || (edit[0] !== '+' && edit[0] !== '-')) throw new UsageError(`"${edit}": write +TAG to add a tag or -TAG to remove one`);
    (edit[0] === '+' ? add : drop).push(edit.slice(1));
  }
  const services = ctx.services();
  const current = services.sessions.get(id).tags;
  const next = Tags.safeParse([...current.filter((existing) => !drop.includes(existing)), ...add]);
  if (!next.success) throw new UsageError(`tags: ${next.error.issues[0]!.message}`);
  const session = services.compare.update(id, { tags: next.data });
  if (ctx.values.json) writeJson(ctx.stdout, { id: session.id, tags: session.tags });
  else ctx.stdout.write(`${session.id}  ${session.tags.join(', ') || '(no tags)'}\n`);
  return EXIT.ok;
}

async function remove(ctx: CommandContext, args: string[]): Promise<number> {
  if (args.length === 0) throw new UsageError('say which sessions to delete (IDs)');
  const ids = args.map(sessionId);
  if (!ctx.values.yes) throw new UsageError(`this deletes ${ids.length === 1 ? `session ${ids[0]} and all its runs` : `sessions ${ids.join(', ')} and all their runs`} for good: add --yes`);
  const services = ctx.services();
  // Every ID must exist before anything is deleted, so a typo deletes nothing.
  for (const id of ids) services.sessions.get(id);
  for (const id of ids) {
    services.sessions.delete(id);
    ctx.stderr.write(`deleted session ${id}\n`);
  }
  return EXIT.ok;
}

async function exportSession(ctx: CommandContext, args: string[]): Promise<number> {
  const id = sessionId(args[0]);
  noExtra(args.slice(1));
  const format = SessionExportFormat.safeParse(stringOption(ctx, 'format'));
  if (!format.success) throw new UsageError(`--format ${format.error.issues[0]!.message}`);
  const file = ctx.services().exports.export(id, format.data);
  const out = stringOption(ctx, 'out');
  if (out) {
    await writeFile(out, file.content);
    ctx.stderr.write(`wrote ${out}\n`);
  } else ctx.stdout.write(file.content);
  return EXIT.ok;
}

/** The request the session sent, with the plan's name for it when it has one: `fib: GET /fib?n=30`. */
function requestFact(config: Record<string, unknown>): string[][] {
  const request = sessionRequestOf(config);
  return request ? [['request', `${request.name ? `${request.name}: ` : ''}${request.method} ${request.path}`]] : [];
}
