// The host part of a comparison: one row per system fact (kernel, cores, CPU, memory, limits,
// tracked sysctls) with each compared session's value, flagged where they differ, and the warnings
// that say when runs were made on machines too different to compare fairly. Each value comes from
// the session's own snapshot; a fact that snapshot did not record is null ("not recorded"). Sessions
// with the same number of clients are compared client by client (first with first, second with
// second); when their client sets differ in size, that is said and only their first clients compared.

import type { HostFacts } from '../hosts/host-facts.ts';
import { effectText } from '../presets/preset-effect.ts';
import { TRACKED_SYSCTLS, type SystemInfo } from '../hosts/system-info.ts';

/** A session's snapshot of one host; snapshots older than the host facts carry the system info only. */
export type HostSnapshot = SystemInfo & Partial<Pick<HostFacts, 'preset' | 'readings'>>;

export type HostRole = 'client' | 'server';

export interface HostDiffRow {
  role: HostRole;
  /** Which client (0-based), when the sessions have several clients each; absent otherwise. */
  clientIndex?: number;
  label: string;
  /** One value per compared session, in order; null when that session's snapshot did not record it. */
  values: Array<string | null>;
  differs: boolean;
}

interface Fact {
  label: string;
  read: (info: HostSnapshot) => string | null;
  /** A difference here makes results not comparable (rather than merely worth a look). */
  critical: boolean;
  /** Only for this role (the server process's limits); both roles when absent. */
  role?: HostRole;
  /** What is compared, when it is less than what is shown (the limits, not the process's name); `read` when absent. */
  compare?: (info: HostSnapshot) => string | null;
}

function presetOf(info: HostSnapshot): string | null {
  if (!info.preset) return null;
  const { applied, pending, effects } = info.preset;
  const parts = [...applied, ...pending.map((name) => `${name} (pending)`)];
  const missed = effects?.filter((effect) => !effect.took).length ?? 0;
  return parts.length > 0 ? `${parts.join(', ')}${missed > 0 ? ` (${missed} of ${effects!.length} keys not in effect)` : ''}` : 'none';
}

/**
 * The preset's keys as they took effect (the value in effect, and what was asked where it did not
 * take): what the session ran with, not what the preset's name promises. Null where the snapshot
 * predates them.
 */
export function presetEffectsOf(info: HostSnapshot): string | null {
  if (!info.preset) return null;
  const { applied, pending, effects } = info.preset;
  if (!effects) return applied.length === 0 && pending.length === 0 ? 'none' : null;
  return effects.length > 0 ? effects.map(effectText).join('; ') : 'none';
}

/** A reading of the facts script: not recorded in older snapshots, not read when the script failed. */
function reading(read: (readings: NonNullable<HostFacts['readings']>) => string): (info: HostSnapshot) => string | null {
  return (info) => (info.readings === undefined ? null : info.readings === null ? 'not read' : read(info.readings));
}

const limitsText = (limits: NonNullable<NonNullable<HostFacts['readings']>['listener']>['limits']) =>
  `nofile ${limits.nofile.soft} / ${limits.nofile.hard}, nproc ${limits.nproc.soft} / ${limits.nproc.hard}`;

const listenerLimits = reading(({ listener }) => (listener ? `${limitsText(listener.limits)} (${listener.command})` : 'no listener found'));

/** The limits alone: two templates' servers are different programs (apache2, node, java), which says nothing about their limits. */
const listenerLimitsOnly = reading(({ listener }) => (listener ? limitsText(listener.limits) : 'no listener found'));

const GIB = 1024 ** 3;

const FACTS: readonly Fact[] = [
  { label: 'hostname', read: (info) => info.hostname, critical: false },
  { label: 'distribution', read: (info) => info.distro, critical: false },
  { label: 'kernel', read: (info) => info.kernel, critical: true },
  { label: 'architecture', read: (info) => info.arch, critical: true },
  { label: 'CPU model', read: (info) => info.cpuModel, critical: true },
  { label: 'cores', read: (info) => String(info.cpuCores), critical: true },
  { label: 'memory', read: (info) => `${(info.memoryBytes / GIB).toFixed(1)} GiB`, critical: true },
  { label: 'nofile limit', read: (info) => `${info.limits.nofile.soft} / ${info.limits.nofile.hard}`, critical: true },
  { label: 'nproc limit', read: (info) => `${info.limits.nproc.soft} / ${info.limits.nproc.hard}`, critical: true },
  { label: 'server process limits', read: listenerLimits, compare: listenerLimitsOnly, critical: true, role: 'server' },
  { label: 'preset applied', read: presetOf, critical: false },
  { label: 'preset keys in effect', read: presetEffectsOf, critical: false },
  { label: 'CPU governor', read: reading(({ governors }) => governors?.join(', ') ?? 'not exposed'), critical: false },
  { label: 'turbo boost', read: reading(({ boost }) => (boost ? (boost.on ? 'on' : 'off') : 'not exposed')), critical: false },
  ...TRACKED_SYSCTLS.map((key) => ({ label: key, read: (info: SystemInfo) => info.sysctls[key] ?? '(absent)', critical: true })),
];

export interface HostDiff {
  rows: HostDiffRow[];
  warnings: string[];
}

/** One session's snapshots: its server, its first client and (sessions with several) every client in order. */
export type SessionSystems = Record<HostRole, HostSnapshot | null> & { clients?: readonly HostSnapshot[] };

function clientsOf(systems: SessionSystems): readonly HostSnapshot[] {
  return systems.clients && systems.clients.length > 0 ? systems.clients : systems.client ? [systems.client] : [];
}

/** Rows and warnings for one host position across the sessions: `who` names it in the warnings. */
function compareHosts(names: readonly string[], infos: ReadonlyArray<HostSnapshot | null>, role: HostRole, who: string, clientIndex?: number): HostDiff {
  const rows: HostDiffRow[] = [];
  const warnings: string[] = [];
  const missing = infos.flatMap((info, i) => (info === null ? [names[i] ?? `#${i + 1}`] : []));
  if (missing.length > 0 && missing.length < infos.length) {
    warnings.push(`No ${who} system info for ${missing.map((name) => `“${name}”`).join(', ')}: cannot tell whether the ${who} hosts match.`);
  }
  const differing: string[] = [];
  for (const fact of FACTS.filter((candidate) => (candidate.role ?? role) === role)) {
    const values = infos.map((info) => (info ? fact.read(info) : null));
    const compared = fact.compare ? infos.map((info) => (info ? fact.compare!(info) : null)) : values;
    const known = compared.filter((value): value is string => value !== null);
    const differs = new Set(known).size > 1;
    rows.push({ role, ...(clientIndex !== undefined ? { clientIndex } : {}), label: fact.label, values, differs });
    if (differs && fact.critical) differing.push(fact.label);
  }
  if (differing.length > 0) warnings.push(`Not comparable: the ${who} hosts differ in ${differing.join(', ')}.`);
  return { rows, warnings };
}

/** `hosts[i]` holds session i's snapshots (null where none was taken). */
export function diffHosts(names: readonly string[], hosts: readonly SessionSystems[]): HostDiff {
  const parts: HostDiff[] = [compareHosts(names, hosts.map((entry) => entry.server), 'server', 'server')];
  const clients = hosts.map(clientsOf);
  const counts = [...new Set(clients.map((list) => list.length).filter((count) => count > 0))].sort((a, b) => a - b);
  const clientWarnings: string[] = [];
  if (counts.length > 1) {
    clientWarnings.push(`The client sets differ (${counts.join(' vs ')} clients): only each session's first client is compared.`);
  }
  if (counts.length === 1 && counts[0]! > 1) {
    for (let index = 0; index < counts[0]!; index++) {
      parts.push(compareHosts(names, clients.map((list) => list[index] ?? null), 'client', `client ${index + 1}`, index));
    }
  } else {
    parts.push(compareHosts(names, clients.map((list) => list[0] ?? null), 'client', 'client'));
  }
  return { rows: parts.flatMap((part) => part.rows), warnings: [...parts.flatMap((part) => part.warnings), ...clientWarnings] };
}
