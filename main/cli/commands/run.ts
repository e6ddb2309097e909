// `benchlab run plan.yaml`: runs a plan file headless, exactly as the wizard runs its plan — the
// hosts connected under the host key rules, the file resolved to a PlanSpec, the plan runner's
// presets, deploys, loads, stops and reverts — storing sessions in the app's database. Progress on
// stderr, the summary table on stdout, thresholds judged at the end (exit 0 all hold, 1 one fails
// or the plan failed, 2 bad input); --json/--junit/--markdown write the results for CI. The first
// Ctrl-C or SIGTERM cancels the plan cleanly (exit 130); a second exits at once.

import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { loginRefProblem } from '../../../app/hosts/host-ref.ts';
import type { PlanFileCatalogs } from '../../../app/plans/plan-file-catalog.ts';
import { describeProblems, parsePlanFile, planFileClients, type PlanFile, type PlanFilePlace } from '../../../app/plans/plan-file.ts';
import { MAX_REPEATS, unrevertedHosts, type PlanSpec, type PlanState } from '../../../app/plans/plan.ts';
import { summaryRows, thresholdLines } from '../../../app/plans/plan-report.ts';
import { parseThresholds, type ThresholdResult } from '../../../app/plans/thresholds.ts';
import type { Host } from '../../../app/hosts/hosts.ts';
import { ENGINE_CHOICES, EngineChoice } from '../../../app/runs/engine-choice.ts';
import { builtInStudiesDir, loadCatalog, loadStudies, resolvePlanFile, templatePathsFromEnv, type Services } from '../../services/services.ts';
import { EXIT, formatTable, intOption, listOption, stringOption, UsageError, type Command, type CommandContext } from '../cli-kit.ts';
import { parseClientRefs } from '../client-refs.ts';
import { connectHost, resolveHostRef } from '../host-refs.ts';
import { watchInterrupts } from '../run-interrupts.ts';
import { RunProgress } from '../run-progress.ts';
import { checkReportFiles, findBaseline, planReport, writeReports, type ReportFiles } from '../run-results.ts';

export const runCommand: Command = {
  name: 'run',
  summary: 'run a plan file (presets, deploy, load, revert) and check its thresholds',
  usage: `usage: benchlab run PLAN.yaml [options]

  PLAN.yaml                 a plan file (YAML or .json; see docs/plan-files.md)
  --client HOST[:WEIGHT]    a load client (instead of the file's hosts.client or hosts.clients);
                            repeat it for several clients, the load split over them by weight
                            (default: each host's core count), e.g. --client a --client b:2
  --server HOST             the server under test (instead of the file's hosts.server)
  --accept-new-host-keys    pin the key of a host that has none pinned yet (as ssh's accept-new);
                            a changed key is always refused
  --threshold EXPR          a threshold on top of the file's, e.g. "p99 < 20ms" (repeatable)
  --baseline SESSION|TAG    compare with a session id, or every session with this tag, for
                            "p99 regression < 10%" thresholds
  --strict-baseline         a regression threshold that cannot tell (too few runs) fails
  --json FILE               write the results as JSON
  --junit FILE              write the results as JUnit XML (a testcase per threshold)
  --markdown FILE           write the results as Markdown
  --repeats N               runs of each template (1–${MAX_REPEATS}), instead of the file's
  --engine auto|native|node the load engine, instead of the file's (default auto: native where it
                            can run, else Node with a notice)
  --name NAME               the sessions' name prefix, instead of the file's
  --tag TAG                 a tag for every session (repeatable)
  --quiet                   no progress on stderr

  HOST is a stored host name, local, USER@HOST[:PORT] or a ~/.ssh/config alias (a login's
  weight goes after its port: root@10.0.0.2:22:2).
  Thresholds: p50 p75 p90 p99 p999 max mean (us, ms, s; a bare number is ms), rps, errors
  (a count, or % of the requests sent), timeouts, not_sent; <, <=, >, >=, ==.
  exit codes: 0 every threshold holds, 1 one fails or the plan failed, 2 bad input,
  130 interrupted (Ctrl-C or SIGTERM: the load and server are stopped and the hosts reverted;
  a second Ctrl-C exits at once)`,
  example: `benchlab run plan.yaml --accept-new-host-keys --junit results.xml
benchlab run plan.yaml --client lab-client --server root@10.0.0.2 --threshold "p99 < 20ms" --repeats 5 --baseline nightly
benchlab run plan.yaml --client lab-client --client lab-client2:2 --server lab-server`,
  options: {
    client: { type: 'string', multiple: true },
    server: { type: 'string' },
    'accept-new-host-keys': { type: 'boolean' },
    threshold: { type: 'string', multiple: true },
    baseline: { type: 'string' },
    'strict-baseline': { type: 'boolean' },
    json: { type: 'string' },
    junit: { type: 'string' },
    markdown: { type: 'string' },
    repeats: { type: 'string' },
    engine: { type: 'string' },
    name: { type: 'string' },
    tag: { type: 'string', multiple: true },
    quiet: { type: 'boolean' },
  },
  run: runPlanFile,
};

/** What the file is checked against before anything connects; a catalog that cannot be read is left to the later check. */
async function installedCatalogs(): Promise<PlanFileCatalogs | undefined> {
  try {
    const [templates, studies] = await Promise.all([loadCatalog(templatePathsFromEnv().templatesDir), loadStudies(builtInStudiesDir())]);
    return { templates: templates.entries.map((entry) => entry.manifest), studies: studies.studies };
  } catch {
    return undefined;
  }
}

async function readPlan(ctx: CommandContext): Promise<{ file: string; plan: PlanFile; at: PlanFilePlace } | number> {
  const [file, ...extra] = ctx.positionals;
  if (!file) throw new UsageError('missing the plan file: benchlab run PLAN.yaml');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}": one plan file at a time`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : messageOf(error)}`);
  }
  const parsed = parsePlanFile(text, extname(file).toLowerCase() === '.json' ? 'json' : 'yaml', await installedCatalogs());
  if (!parsed.ok) {
    ctx.stderr.write(`${describeProblems(file, parsed.problems)}\n`);
    return EXIT.badInput;
  }
  return { file, plan: parsed.plan, at: parsed.at ?? (() => null) };
}

/** The file's plan with the command line's replacements and additions. */
function withOptions(ctx: CommandContext, plan: PlanFile): PlanFile {
  const repeats = intOption(ctx, 'repeats', 1, MAX_REPEATS);
  const name = stringOption(ctx, 'name');
  const engine = stringOption(ctx, 'engine');
  if (engine !== undefined && !EngineChoice.safeParse(engine).success) throw new UsageError(`--engine must be one of ${ENGINE_CHOICES.join(', ')}`);
  return {
    ...plan,
    ...(repeats !== undefined ? { repeats } : {}),
    ...(engine !== undefined ? { engine: EngineChoice.parse(engine) } : {}),
    ...(name !== undefined ? { name } : {}),
    tags: [...new Set([...plan.tags, ...listOption(ctx, 'tag')])],
    thresholds: [...plan.thresholds, ...listOption(ctx, 'threshold')],
  };
}

/** A host reference and where it was written (`--server`, or `plan.yaml:4:11 hosts.server`), to name it in a problem. */
interface NamedRef {
  host: string;
  weight?: number | undefined;
  origin: string;
}

/** Where a field of the file is written, as a problem line starts. */
function fileOrigin(read: { file: string; at: PlanFilePlace }, path: Array<string | number>): string {
  const place = read.at(path);
  const field = path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), '');
  return `${read.file}${place ? `:${place.line}:${place.column}` : ''} ${field}`;
}

/** A login given as an option is checked as the file's are, before anything is stored or connected. */
function checkedOption(option: string, ref: string): void {
  const problem = loginRefProblem(ref);
  if (problem) throw new UsageError(`${option} ${ref}: ${problem}`);
}

function serverRef(ctx: CommandContext, read: { file: string; plan: PlanFile; at: PlanFilePlace }): NamedRef {
  const given = stringOption(ctx, 'server');
  if (given !== undefined) {
    checkedOption('--server', given);
    return { host: given, origin: '--server' };
  }
  const ref = read.plan.hosts?.server;
  if (!ref) throw new UsageError('no server host: add hosts.server to the plan file or pass --server HOST');
  return { host: ref, origin: fileOrigin(read, ['hosts', 'server']) };
}

/** The load clients: the --client options, else the file's hosts.clients or hosts.client. */
function clientRefs(ctx: CommandContext, read: { file: string; plan: PlanFile; at: PlanFilePlace }): NamedRef[] {
  const given = listOption(ctx, 'client');
  if (given.length > 0) {
    return parseClientRefs(given).map((client) => {
      checkedOption('--client', client.host);
      return { ...client, origin: '--client' };
    });
  }
  const clients: NamedRef[] = read.plan.hosts?.clients
    ? read.plan.hosts.clients.map((client, index) => ({ ...client, origin: fileOrigin(read, ['hosts', 'clients', index]) }))
    : planFileClients(read.plan.hosts).map((client) => ({ ...client, origin: fileOrigin(read, ['hosts', 'client']) }));
  if (clients.length === 0) throw new UsageError('no client host: add hosts.client to the plan file or pass --client HOST');
  return clients;
}

/** A reference resolved to its host; one that names none is bad input, said with where it was written and its role. */
async function resolveNamed(services: Services, ref: NamedRef, role: string): Promise<Host> {
  try {
    return await resolveHostRef(services, ref.host);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'not_found' || error.code === 'invalid_args')) {
      throw new ApiError(error.code, `${ref.origin} (the ${role}): ${error.message}`);
    }
    throw error;
  }
}

/** Hosts a second Ctrl-C would leave with a preset applied and not reverted (every client's included). */
function pendingRevertHosts(state: PlanState | null, started: { spec: PlanSpec; hosts: Host[] } | null): string[] {
  if (!state || !started) return [];
  return unrevertedHosts(state, started.spec).map((id) => started.hosts.find((host) => host.id === id)?.name ?? `host ${id}`);
}

async function runPlanFile(ctx: CommandContext): Promise<number> {
  const read = await readPlan(ctx);
  if (typeof read === 'number') return read;
  const plan = withOptions(ctx, read.plan);
  const { thresholds, problems } = parseThresholds(plan.thresholds);
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  const baselineRef = stringOption(ctx, 'baseline');
  if (!baselineRef && thresholds.some((threshold) => threshold.baseline)) {
    throw new UsageError('a regression threshold needs a baseline: pass --baseline SESSION|TAG');
  }
  const files: ReportFiles = { json: stringOption(ctx, 'json'), junit: stringOption(ctx, 'junit'), markdown: stringOption(ctx, 'markdown') };
  await checkReportFiles(files);
  const refs = { clients: clientRefs(ctx, { ...read, plan }), server: serverRef(ctx, { ...read, plan }) };

  const stderr = ctx.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  const quiet = ctx.values.quiet === true;
  const progress = new RunProgress({ stream: quiet ? nowhere() : stderr, live: stderr.isTTY === true });
  const services = ctx.services();
  const baseline = baselineRef ? findBaseline(services, baselineRef) : null;

  // setup: nothing changed on the hosts yet, so a signal exits at once; starting: the plan is being
  // started, so it is cancelled as soon as it runs; running: cancelled now.
  let phase: 'setup' | 'starting' | 'running' = 'setup';
  let interrupted = false;
  let latest: PlanState | null = null;
  let started: { spec: PlanSpec; hosts: Host[] } | null = null;
  const cancel = () => services.plans.cancel().catch(() => undefined);
  const stopWatching = watchInterrupts({
    first: (signal) => {
      interrupted = true;
      if (phase === 'setup') {
        stderr.write(`\nbenchlab run: ${signal} before the plan started; nothing was changed on the hosts\n`);
        process.exit(EXIT.interrupted);
      }
      progress.line(`${signal}: stopping the plan — the load and the server are stopped and the hosts reverted; press Ctrl-C again to exit at once`);
      if (phase === 'running') void cancel();
    },
    second: () => {
      progress.finish();
      const pending = pendingRevertHosts(latest, started);
      stderr.write(
        pending.length > 0
          ? `benchlab run: exiting at once; ${pending.join(' and ')} stay${pending.length === 1 ? 's' : ''} marked pending revert (revert from the Presets page or benchlab presets revert)\n`
          : 'benchlab run: exiting at once; no preset was left applied\n',
      );
      process.exit(EXIT.interrupted);
    },
  });
  try {
    const clients: Array<{ host: Host; weight: number | undefined }> = [];
    for (const [index, ref] of refs.clients.entries()) {
      clients.push({ host: await resolveNamed(services, ref, refs.clients.length > 1 ? `load client ${index + 1}` : 'load client'), weight: ref.weight });
    }
    const twice = clients.find((client, index) => clients.findIndex((other) => other.host.id === client.host.id) < index);
    if (twice) throw new UsageError(`${twice.host.name} is named twice as a load client: name each client host once`);
    const client = clients[0]!.host;
    const server = await resolveNamed(services, refs.server, 'server');
    const onPinned = (host: Host, fingerprint: string) => progress.line(`pinned the host key of ${host.name}: ${fingerprint}`);
    const toConnect = [...clients.map((entry) => entry.host), server].filter((host, index, all) => all.findIndex((other) => other.id === host.id) === index);
    for (const host of toConnect) {
      progress.line(`connecting to ${host.name}`);
      await connectHost(services, host, { acceptNewHostKeys: ctx.values['accept-new-host-keys'] === true, onPinned });
    }
    const resolved = await resolvePlanFile(
      { templates: services.templates, presets: services.presets, studies: () => loadStudies(builtInStudiesDir()) },
      {
        plan,
        clientHostId: client.id,
        clients: clients.map((entry) => ({ hostId: entry.host.id, ...(entry.weight !== undefined ? { weight: entry.weight } : {}) })),
        serverHostId: server.id,
      },
    );
    if (!resolved.ok) {
      ctx.stderr.write(`${describeProblems(read.file, resolved.problems)}\n`);
      return EXIT.badInput;
    }

    started = { spec: resolved.spec, hosts: [...clients.map((entry) => entry.host), server] };
    const unsubscribe = [
      services.bus.subscribe('plans.progress', (state) => {
        latest = state;
        progress.plan(state);
      }),
      services.bus.subscribe('runs.points', (batch) => {
        progress.points(batch.points);
        // Acknowledged as drawn, as the Run page does, so the stream never holds points back.
        services.runs.ack(batch.sessionId, batch.seq);
      }),
    ];
    let final: PlanState | null;
    try {
      phase = 'starting';
      await services.plans.start(resolved.spec);
      phase = 'running';
      if (interrupted) void cancel();
      final = await services.plans.settled();
    } finally {
      for (const stop of unsubscribe) stop();
      progress.finish();
    }
    if (!final) throw new Error('the plan ended without a state');

    const report = planReport(services, { plan: final, targets: resolved.targets, thresholds, baseline, strictBaseline: ctx.values['strict-baseline'] === true });
    const table = summaryRows(report);
    ctx.stdout.write(formatTable(table.headers, table.rows));
    for (const line of thresholdLines(report)) ctx.stdout.write(`${line}\n`);
    if (final.message && final.status !== 'completed') ctx.stderr.write(`benchlab run: plan ${final.status}: ${final.message.replace(/\n/g, '\n  ')}\n`);
    for (const file of await writeReports(report, files)) ctx.stderr.write(`wrote ${file}\n`);
    if (report.thresholds.length > 0) ctx.stdout.write(`${thresholdTally(report.thresholds)}\n`);
    if (interrupted) return EXIT.interrupted;
    return report.outcome === 'passed' ? EXIT.ok : EXIT.failed;
  } finally {
    stopWatching();
  }
}

/** "thresholds: 5 hold, 1 failed, 1 can't tell". */
function thresholdTally(results: readonly ThresholdResult[]): string {
  const holds = results.filter((result) => result.status === 'holds').length;
  const failed = results.filter((result) => result.failsRun).length;
  const unsure = results.length - holds - failed;
  return `thresholds: ${holds} hold, ${failed} failed${unsure > 0 ? `, ${unsure} can't tell` : ''}`;
}

/** Where --quiet sends progress. */
function nowhere(): NodeJS.WritableStream {
  return { write: () => true } as unknown as NodeJS.WritableStream;
}
