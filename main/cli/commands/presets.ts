// `benchlab presets list|plan|apply|revert`: the Presets page headless. plan prints the diff the
// app shows and its plan id; apply applies exactly the plan it prints (or the one named with
// --plan-id, refused if the host changed since), revert undoes the host's pending changes. The
// preset service owns every rule (journal, restore record, verification).

import type { ApplyResult, RevertResult } from '../../../app/presets/presets-contract.ts';
import { plural } from '../../../app/common/plural.ts';
import type { PresetPlan } from '../../../app/presets/preset-plan.ts';
import type { Host } from '../../../app/hosts/hosts.ts';
import { EXIT, formatTable, stringOption, UsageError, verbOf, writeJson, type Command, type CommandContext } from '../cli-kit.ts';
import { connectedHost } from '../host-refs.ts';

const VERBS = ['list', 'plan', 'apply', 'revert'] as const;

export const presetsCommand: Command = {
  name: 'presets',
  summary: 'list presets; plan, apply and revert one on a host',
  usage: `usage: benchlab presets list [--json]
       benchlab presets plan HOST PRESET [--json]
       benchlab presets apply HOST PRESET [--plan-id ID] [--json]
       benchlab presets revert HOST [--json]

  list         the built-in and saved presets
  plan         what applying PRESET would change on HOST (sysctls, limits, network, files), and the plan id
  apply        apply it: prints the plan, then applies exactly that plan and verifies each key
    --plan-id ID   apply only if the plan is still this one (from an earlier plan)
  revert       put back what Benchlab changed on HOST (every pending apply)
  --accept-new-host-keys  pin the key of a host that has none pinned yet; a changed key is always refused
  --json       machine-readable output

  HOST is a stored host name, local, USER@HOST[:PORT] or a ~/.ssh/config alias. The sudo password, if
  the login needs one, comes from BENCHLAB_SUDO_PASSWORD.`,
  example: `benchlab presets plan lab-server high-concurrency-server
benchlab presets apply lab-server high-concurrency-server --plan-id 3f2a…
benchlab presets revert lab-server`,
  options: {
    json: { type: 'boolean' },
    'plan-id': { type: 'string' },
    'accept-new-host-keys': { type: 'boolean' },
  },
  async run(ctx) {
    const verb = verbOf(ctx, VERBS);
    const args = ctx.positionals.slice(1);
    if (verb === 'list') {
      if (args.length > 0) throw new UsageError(`presets list takes no arguments, got "${args[0]}"`);
      return list(ctx);
    }
    const expected = verb === 'revert' ? 1 : 2;
    if (args.length !== expected) throw new UsageError(verb === 'revert' ? 'presets revert needs HOST' : `presets ${verb} needs HOST and PRESET`);
    const host = await connectedHost(ctx, args[0]!);
    if (verb === 'revert') return revert(ctx, host);
    const presetId = args[1]!;
    ctx.services().presetCatalog.get(presetId);
    return verb === 'plan' ? plan(ctx, host, presetId) : apply(ctx, host, presetId);
  },
};

async function list(ctx: CommandContext): Promise<number> {
  const presets = ctx.services().presetCatalog.list();
  if (ctx.values.json) writeJson(ctx.stdout, presets);
  else {
    const rows = presets.map((preset) => [preset.id, preset.name, preset.builtIn ? 'built-in' : 'saved', preset.sysctls.length, preset.limits.length, preset.network ? 'yes' : '-']);
    ctx.stdout.write(formatTable(['ID', 'NAME', 'KIND', 'SYSCTLS', 'LIMITS', 'NETWORK'], rows));
  }
  return EXIT.ok;
}

/** The plan as the Presets page's diff: each key and line with its current and next value. */
export function formatPlan(plan: PresetPlan): string {
  const out = [`${plan.presetName} on ${plan.login}: ${plan.noChanges ? 'no changes' : plural(plan.changes, 'change')}`];
  if (plan.sysctls.length > 0) {
    const rows = plan.sysctls.map((row) => [row.change === 'change' ? '~' : row.change === 'same' ? ' ' : '!', row.key, row.current ?? '-', row.next, row.reason ?? (row.origin === 'restore' ? 'back to its value before Benchlab' : '')]);
    out.push('', formatTable(['', 'SYSCTL', 'NOW', 'PLANNED', 'NOTE'], rows).trimEnd());
  }
  if (plan.limits.length > 0) {
    const rows = plan.limits.map((row) => [row.change === 'change' ? '~' : ' ', row.label, row.current ?? '-', row.next, row.note ?? '']);
    out.push('', formatTable(['', 'LIMIT', 'NOW', 'PLANNED', 'NOTE'], rows).trimEnd());
  }
  if (plan.network) out.push('', ...formatNetworkPlan(plan.network));
  const files = plan.files.filter((file) => file.action !== 'unchanged');
  if (files.length > 0) out.push('', ...files.map((file) => `${file.action} ${file.path}`));
  for (const note of plan.notes) out.push(`note: ${note}`);
  out.push('', `plan id: ${plan.planId}`);
  return `${out.join('\n')}\n`;
}

/** The network side: the interface and why it, each setting now and planned, and the tc command. */
export function formatNetworkPlan(network: NonNullable<PresetPlan['network']>): string[] {
  const rows = network.rows.map((row) => [row.change === 'change' ? '~' : ' ', `${network.interface} ${row.label}`, row.current ?? '-', row.next ?? '- (back to the kernel default)', '']);
  const lines = [`network: ${network.interface} (${network.how}); root qdisc now: ${network.current}`];
  if (rows.length > 0) lines.push(formatTable(['', 'NETWORK', 'NOW', 'PLANNED', ''], rows).trimEnd());
  lines.push(network.command ? `runs: ${network.command}` : 'no tc command to run');
  return lines;
}

async function plan(ctx: CommandContext, host: Host, presetId: string): Promise<number> {
  const result = await ctx.services().presets.plan(presetId, host.id);
  if (ctx.values.json) writeJson(ctx.stdout, result);
  else ctx.stdout.write(formatPlan(result));
  return EXIT.ok;
}

/** Streams the service's progress lines to stderr while an apply or revert runs. */
function withProgress<T>(ctx: CommandContext, host: Host, work: () => Promise<T>): Promise<T> {
  const unsubscribe = ctx.services().bus.subscribe('presets.progress', (progress) => {
    if (progress.hostId === host.id) ctx.stderr.write(`${host.name}: ${progress.message}\n`);
  });
  return work().finally(unsubscribe);
}

async function apply(ctx: CommandContext, host: Host, presetId: string): Promise<number> {
  const services = ctx.services();
  const wanted = stringOption(ctx, 'plan-id');
  let planId = wanted;
  if (!planId) {
    const current = await services.presets.plan(presetId, host.id);
    if (!ctx.values.json) ctx.stdout.write(`${formatPlan(current)}\n`);
    planId = current.planId;
  }
  const result: ApplyResult = await withProgress(ctx, host, () => services.presets.apply(presetId, host.id, planId));
  if (ctx.values.json) {
    writeJson(ctx.stdout, result);
  } else {
    const rows = result.verdicts.map((verdict) => [verdict.key, verdict.expected, verdict.observed ?? '-', verdict.status, verdict.reason ?? '']);
    if (rows.length > 0) ctx.stdout.write(formatTable(['KEY', 'EXPECTED', 'OBSERVED', 'STATUS', 'NOTE'], rows));
    for (const note of result.notes) ctx.stdout.write(`note: ${note}\n`);
    ctx.stdout.write(`${result.outcome}\n`);
  }
  return EXIT.ok;
}

async function revert(ctx: CommandContext, host: Host): Promise<number> {
  const services = ctx.services();
  const result: RevertResult = await withProgress(ctx, host, () => services.presets.revert(host.id));
  if (ctx.values.json) writeJson(ctx.stdout, result);
  else {
    const rows = result.sysctls.map((row) => [row.key, row.original, row.observed ?? '-', row.status, row.reason ?? '']);
    if (rows.length > 0) ctx.stdout.write(formatTable(['SYSCTL', 'ORIGINAL', 'NOW', 'STATUS', 'NOTE'], rows));
    for (const file of result.files.filter((entry) => entry.action !== 'unchanged')) ctx.stdout.write(`${file.action} ${file.path}: ${file.restored ? 'restored' : 'NOT restored'}\n`);
    if (result.network) ctx.stdout.write(`network ${result.network.interface}: ${result.network.observed} (was ${result.network.original}): ${result.network.status}${result.network.reason ? ` (${result.network.reason})` : ''}\n`);
    for (const note of result.notes) ctx.stdout.write(`note: ${note}\n`);
    ctx.stdout.write(`${result.outcome}\n`);
  }
  return result.outcome === 'incomplete' ? EXIT.failed : EXIT.ok;
}
