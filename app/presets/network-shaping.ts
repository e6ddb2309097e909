// The network side of a preset: bandwidth, delay, jitter and loss on a host's egress, made with one
// root qdisc of Benchlab's own (tbf for a bandwidth alone, netem as soon as delay or loss is asked
// for, which then carries the bandwidth too). The model and its validation, the tc arguments, and
// the reading of `tc qdisc show` that plan, verification and revert all judge by. Pure.

import { z } from 'zod';
import { hasControlCharacters } from '../common/text.ts';

/** The handle of Benchlab's root qdisc: how a plan, a verification and a revert tell it from anyone else's. */
export const BENCHLAB_QDISC_HANDLE = 'b1ab:';

/** "auto": the interface routing to where Benchlab's login comes from (see docs). */
export const AUTO_INTERFACE = 'auto';

export const NetworkShaping = z
  .object({
    interface: z.string({ error: 'must be text' }).default(AUTO_INTERFACE),
    /** Megabits (10^6 bits) per second. */
    rateMbit: z.number({ error: 'must be a number' }).optional(),
    delayMs: z.number({ error: 'must be a number' }).optional(),
    jitterMs: z.number({ error: 'must be a number' }).optional(),
    lossPercent: z.number({ error: 'must be a number' }).optional(),
  })
  .strict();
export type NetworkShaping = z.output<typeof NetworkShaping>;

export const NETWORK_SETTINGS = ['rate', 'delay', 'jitter', 'loss'] as const;
export type NetworkSetting = (typeof NETWORK_SETTINGS)[number];

/** Each setting: its field, its words, its unit and its bounds (the upper ones keep Benchlab's own SSH link, which shares the interface, usable for the revert). */
export const SETTING_INFO = {
  rate: { field: 'rateMbit', label: 'bandwidth', unit: 'Mbit/s', min: 0.1, max: 100_000 },
  delay: { field: 'delayMs', label: 'delay', unit: 'ms', min: 0.01, max: 10_000 },
  jitter: { field: 'jitterMs', label: 'jitter', unit: 'ms', min: 0.01, max: 10_000 },
  loss: { field: 'lossPercent', label: 'loss', unit: '%', min: 0.001, max: 50 },
} as const satisfies Record<NetworkSetting, { field: keyof NetworkShaping; label: string; unit: string; min: number; max: number }>;

/** A Linux interface name: at most 15 characters, none that could leave a command's argument. */
export function interfaceProblem(name: string): string | null {
  if (name === AUTO_INTERFACE) return null;
  if (name.trim() === '') return `is required ("${AUTO_INTERFACE}" picks the interface routing to Benchlab)`;
  if (hasControlCharacters(name)) return 'must not contain line breaks or control characters';
  if (!/^[A-Za-z0-9_.-]{1,15}$/.test(name) || name === '.' || name === '..') return `must be an interface name such as eth0 (at most 15 letters, digits, "_", "." or "-"), or "${AUTO_INTERFACE}"`;
  return null;
}

/** The settings a shaping sets, in order, with their values. */
export function shapingValues(network: NetworkShaping): Array<{ setting: NetworkSetting; value: number }> {
  return NETWORK_SETTINGS.flatMap((setting) => {
    const value = network[SETTING_INFO[setting].field];
    return typeof value === 'number' ? [{ setting, value }] : [];
  });
}

/** Problems of a network block, each with its field (`network.delayMs`). */
export function networkProblems(network: NetworkShaping): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  const iface = interfaceProblem(network.interface);
  if (iface) problems.push({ field: 'network.interface', message: iface });
  for (const { setting, value } of shapingValues(network)) {
    const info = SETTING_INFO[setting];
    const field = `network.${info.field}`;
    if (!Number.isFinite(value)) problems.push({ field, message: 'must be a number' });
    else if (value < info.min || value > info.max) problems.push({ field, message: `must be between ${info.min} and ${info.max.toLocaleString('en-US')} ${info.unit}` });
  }
  if (network.jitterMs !== undefined && network.delayMs === undefined) problems.push({ field: 'network.jitterMs', message: 'needs a delay to vary around' });
  if (network.jitterMs !== undefined && network.delayMs !== undefined && network.jitterMs > network.delayMs) {
    problems.push({ field: 'network.jitterMs', message: 'must not be above the delay' });
  }
  if (shapingValues(network).length === 0) problems.push({ field: 'network', message: 'sets nothing: give a bandwidth, a delay or a loss (or remove the network block)' });
  return problems;
}

/** Which qdisc makes the shaping: netem for delay or loss (it also rates), tbf for a bandwidth alone. */
export function qdiscKind(network: NetworkShaping): 'tbf' | 'netem' {
  return network.delayMs !== undefined || network.lossPercent !== undefined ? 'netem' : 'tbf';
}

/** A number as tc reads it, without floating-point noise (0.1 + 0.2 style). */
function plain(value: number): string {
  return String(Number(value.toPrecision(12)));
}

function rateArgument(mbit: number): string {
  return Number.isInteger(mbit) ? `${mbit}mbit` : `${plain(mbit * 1000)}kbit`;
}

/**
 * The tbf bucket: at least 4 ms of the rate (so a high rate is not held back by the timer) and at
 * least 16 KiB (a few full-size packets); tbf splits larger GSO packets itself.
 */
export function tbfBurstBytes(mbit: number): number {
  return Math.max(16_384, Math.ceil((mbit * 1_000_000 * 0.004) / 8));
}

/** The arguments after `tc qdisc replace dev IF root handle …`: the qdisc and its settings. */
export function qdiscArguments(network: NetworkShaping): string[] {
  if (qdiscKind(network) === 'tbf') {
    const mbit = network.rateMbit!;
    return ['tbf', 'rate', rateArgument(mbit), 'burst', String(tbfBurstBytes(mbit)), 'latency', '50ms'];
  }
  const args = ['netem'];
  if (network.delayMs !== undefined) args.push('delay', `${plain(network.delayMs)}ms`, ...(network.jitterMs !== undefined ? [`${plain(network.jitterMs)}ms`] : []));
  if (network.lossPercent !== undefined) args.push('loss', `${plain(network.lossPercent)}%`);
  if (network.rateMbit !== undefined) args.push('rate', rateArgument(network.rateMbit));
  return args;
}

/** The whole command as the plan shows it (the host runs it with the same arguments). */
export function tcCommand(iface: string, network: NetworkShaping): string {
  return ['tc', 'qdisc', 'replace', 'dev', iface, 'root', 'handle', BENCHLAB_QDISC_HANDLE, ...qdiscArguments(network)].join(' ');
}

/** A setting's value as people read it: `440 Mbit/s`, `10 ms`, `0.1 %`. */
export function formatSetting(setting: NetworkSetting, value: number): string {
  return `${plain(Number(value.toPrecision(6)))} ${SETTING_INFO[setting].unit}`;
}

// ---------------------------------------------------------------------------------------------
// Reading `tc qdisc show dev IF`

export interface QdiscLine {
  kind: string;
  handle: string;
  /** "root", or the parent handle (ingress is `ffff:fff1`). */
  parent: string;
  /** The line without its reference count (it moves with other qdiscs, not with settings). */
  text: string;
}

const INGRESS_PARENT = 'ffff:fff1';

export function parseQdiscShow(text: string): QdiscLine[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('qdisc '))
    .map((line) => {
      const [, kind = '', handle = '', where = '', parent = ''] = line.split(/\s+/);
      return { kind, handle, parent: where === 'root' ? 'root' : where === 'parent' ? parent : where, text: line.replace(/\s+refcnt \d+/, '').replace(/\s+/g, ' ') };
    });
}

/** The lines a root qdisc change touches: all but ingress (and clsact), which sit beside the root. */
function egressLines(lines: readonly QdiscLine[]): QdiscLine[] {
  return lines.filter((line) => line.parent !== INGRESS_PARENT && line.kind !== 'ingress' && line.kind !== 'clsact');
}

export function benchlabQdisc(lines: readonly QdiscLine[]): QdiscLine | null {
  return lines.find((line) => line.parent === 'root' && line.handle === BENCHLAB_QDISC_HANDLE) ?? null;
}

/**
 * Egress qdiscs someone set (a handle other than the kernel's `0:`) that are not Benchlab's: a revert
 * could not put them back exactly (tc cannot always re-read what it prints), so Benchlab leaves such
 * an interface alone.
 */
export function foreignQdiscs(lines: readonly QdiscLine[]): QdiscLine[] {
  const ours = benchlabQdisc(lines);
  return egressLines(lines).filter((line) => line.handle !== '0:' && line !== ours && !(ours && line.parent.startsWith(BENCHLAB_QDISC_HANDLE)));
}

/** The egress qdiscs of two readings are the same (reference counts aside). */
export function sameEgress(a: string, b: string): boolean {
  const key = (text: string) => egressLines(parseQdiscShow(text)).map((line) => line.text).join('\n');
  return key(a) === key(b);
}

/** The root qdisc in words: `noqueue (the kernel's default)`, `tbf … (Benchlab's)`. */
export function describeRoot(text: string): string {
  const lines = parseQdiscShow(text);
  const root = lines.find((line) => line.parent === 'root');
  if (!root) return 'no root qdisc';
  const words = root.text.replace(/^qdisc /, '');
  if (root.handle === BENCHLAB_QDISC_HANDLE) return `${words} (Benchlab's)`;
  return root.handle === '0:' ? `${root.kind} (the kernel's default)` : words;
}

const RATE_UNITS: Record<string, number> = { bit: 1e-6, kbit: 1e-3, mbit: 1, gbit: 1e3, tbit: 1e6, kibit: 1.024e-3, mibit: 1.048576, gibit: 1073.741824, bps: 8e-6, kbps: 8e-3, mbps: 8, gbps: 8e3 };
const TIME_UNITS: Record<string, number> = { s: 1000, sec: 1000, ms: 1, msec: 1, us: 1e-3, usec: 1e-3, ns: 1e-6 };

function parseUnit(token: string | undefined, units: Record<string, number>): number | null {
  const match = /^(\d+(?:\.\d+)?)([a-z]+)$/i.exec(token ?? '');
  const factor = match ? units[match[2]!.toLowerCase()] : undefined;
  return match && factor !== undefined ? Number(match[1]) * factor : null;
}

/** What Benchlab's root qdisc does, as tc reads it back; null when it is not there. */
export function observedShaping(text: string): Partial<Record<NetworkSetting, number>> | null {
  const ours = benchlabQdisc(parseQdiscShow(text));
  if (!ours) return null;
  const tokens = ours.text.split(' ');
  const after = (word: string) => tokens[tokens.indexOf(word) + 1];
  const seen: Partial<Record<NetworkSetting, number>> = {};
  const rate = tokens.includes('rate') ? parseUnit(after('rate'), RATE_UNITS) : null;
  if (rate !== null) seen.rate = rate;
  if (ours.kind === 'netem') {
    const at = tokens.indexOf('delay');
    const delay = at >= 0 ? parseUnit(tokens[at + 1], TIME_UNITS) : null;
    const jitter = at >= 0 ? parseUnit(tokens[at + 2], TIME_UNITS) : null;
    if (delay !== null) seen.delay = delay;
    if (jitter !== null && jitter > 0) seen.jitter = jitter;
    const loss = tokens.includes('loss') ? /^(\d+(?:\.\d+)?)%$/.exec(after('loss') ?? '') : null;
    if (loss) seen.loss = Number(loss[1]);
  }
  return seen;
}

/** Whether tc's reading matches the value asked for (tc keeps rates in bytes and times in ticks, so 1 % is allowed). */
export function sameSetting(expected: number, observed: number | undefined): boolean {
  if (observed === undefined) return false;
  return Math.abs(observed - expected) <= Math.max(Math.abs(expected) * 0.01, 1e-6);
}
