// The network side of a preset's plan against one host, its restore record and its verdicts: what
// the interface's root qdisc is now and what it becomes (each setting current → planned), the
// refusals said before anything changes (no tc, no such interface, a kernel without the qdisc, a
// qdisc of someone else's that a revert could not put back exactly), and what tc reads back after
// an apply or a revert. Pure: main/ reads the host into a HostNetworkState.

import { z } from 'zod';
import { ApiError } from '../common/errors.ts';
import { hasControlCharacters } from '../common/text.ts';
import {
  AUTO_INTERFACE,
  benchlabQdisc,
  describeRoot,
  foreignQdiscs,
  formatSetting,
  interfaceProblem,
  NETWORK_SETTINGS,
  observedShaping,
  parseQdiscShow,
  qdiscKind,
  SETTING_INFO,
  sameEgress,
  sameSetting,
  shapingValues,
  tcCommand,
  type NetworkSetting,
  type NetworkShaping,
} from './network-shaping.ts';
import type { KeyVerdict } from './preset-verify.ts';

/** The network side of a host as main/ reads it. */
export interface HostNetworkState {
  /** `tc` (iproute2) was found. */
  tc: boolean;
  /** The interface the preset (or the restore record) names, resolved; null when it cannot be. */
  interface: string | null;
  /** How it was chosen, in words ("named in the preset", "routes to 10.0.0.1, where Benchlab's login comes from"). */
  how: string;
  /** Why there is no interface, when there is none. */
  problem: string | null;
  /** `tc qdisc show dev IF`, as printed. */
  qdiscs: string;
  /** Whether the kernel has each qdisc: false when its configuration says it was not built, null when it cannot tell. */
  support: { tbf: boolean | null; netem: boolean | null };
}

/** What the interface held before Benchlab first shaped it: its egress qdiscs, all the kernel's defaults. */
export const NetworkRecord = z
  .object({
    interface: z.string().refine((name) => name !== AUTO_INTERFACE && interfaceProblem(name) === null, 'must be an interface name'),
    qdiscs: z.string().max(4000).refine((text) => !hasControlCharacters(text.replace(/[\n\t]/g, ' ')), 'must be tc text'),
  })
  .strict();
export type NetworkRecord = z.infer<typeof NetworkRecord>;

export const NetworkPlanRow = z.object({
  setting: z.enum(NETWORK_SETTINGS),
  label: z.string(),
  /** What Benchlab's qdisc does now (from an earlier apply); null: not shaped. */
  current: z.string().nullable(),
  /** null: the setting goes away (back to the interface's own qdisc). */
  next: z.string().nullable(),
  change: z.enum(['change', 'same']),
});
export type NetworkPlanRow = z.infer<typeof NetworkPlanRow>;

export const NetworkPlan = z.object({
  interface: z.string(),
  how: z.string(),
  /** The root qdisc now, in words. */
  current: z.string(),
  /** "shape": tc replaces the root qdisc; "restore": an earlier apply's qdisc is removed (this preset shapes nothing); "unchanged". */
  action: z.enum(['shape', 'restore', 'unchanged']),
  /** The command apply runs, as it runs it. */
  command: z.string().nullable(),
  rows: z.array(NetworkPlanRow),
  origin: z.enum(['preset', 'restore']),
});
export type NetworkPlan = z.infer<typeof NetworkPlan>;

function refuse(message: string): never {
  throw new ApiError('unavailable', message);
}

function kernelLacks(state: HostNetworkState, kind: 'tbf' | 'netem'): boolean {
  return state.support[kind] === false;
}

/** The current value of each setting of Benchlab's qdisc on the interface, in words. */
function currentRows(qdiscs: string): Partial<Record<NetworkSetting, number>> {
  return observedShaping(qdiscs) ?? {};
}

/**
 * The network plan: null when neither the preset nor an earlier apply shapes anything. Refuses
 * (ApiError, nothing changed) what apply could not do or revert could not undo exactly.
 */
export function planNetwork(network: NetworkShaping | null, state: HostNetworkState | null | undefined, record: NetworkRecord | null, host: string): NetworkPlan | null {
  if (!network && !record) return null;
  if (!state) refuse(`the network settings of ${host} were not read`);
  if (!state.tc) refuse(`${host} has no tc command (iproute2): its network cannot be shaped. Install iproute2, or use a preset without network settings`);
  if (!state.interface) refuse(`${host}: ${state.problem ?? 'no interface to shape'}`);
  const iface = state.interface;
  if (record && network && record.interface !== iface) {
    refuse(`${host} still carries Benchlab's shaping on ${record.interface} from an earlier apply, and this preset shapes ${iface}: revert ${host} first`);
  }
  const lines = parseQdiscShow(state.qdiscs);
  const foreign = foreignQdiscs(lines);
  if (network && foreign.length > 0) {
    refuse(
      `${iface} on ${host} has a qdisc Benchlab did not set (${foreign[0]!.text.replace(/^qdisc /, '')}), which a revert could not put back exactly: remove it, or name another interface`,
    );
  }
  const now = currentRows(state.qdiscs);
  if (!network) {
    // An earlier apply shaped the interface and this preset does not: its qdisc goes.
    const rows = NETWORK_SETTINGS.filter((setting) => now[setting] !== undefined).map((setting) => ({
      setting,
      label: SETTING_INFO[setting].label,
      current: formatSetting(setting, now[setting]!),
      next: null,
      change: 'change' as const,
    }));
    const shaped = observedShaping(state.qdiscs) !== null;
    return { interface: iface, how: state.how, current: describeRoot(state.qdiscs), action: shaped ? 'restore' : 'unchanged', command: shaped ? `tc qdisc del dev ${iface} root` : null, rows, origin: 'restore' };
  }
  const kind = qdiscKind(network);
  if (kernelLacks(state, kind)) {
    refuse(
      kind === 'netem'
        ? `the kernel of ${host} has no netem qdisc (CONFIG_NET_SCH_NETEM), which a delay, jitter or loss needs: only a bandwidth alone (with tbf) can be applied there`
        : `the kernel of ${host} has no tbf qdisc (CONFIG_NET_SCH_TBF), which a bandwidth alone needs`,
    );
  }
  const wanted = new Map(shapingValues(network).map(({ setting, value }) => [setting, value]));
  const rows: NetworkPlanRow[] = NETWORK_SETTINGS.filter((setting) => wanted.has(setting) || now[setting] !== undefined).map((setting) => {
    const next = wanted.get(setting);
    const current = now[setting];
    const same = next === undefined ? current === undefined : sameSetting(next, current);
    return {
      setting,
      label: SETTING_INFO[setting].label,
      current: current === undefined ? null : formatSetting(setting, current),
      next: next === undefined ? null : formatSetting(setting, next),
      change: same ? 'same' : 'change',
    };
  });
  const command = tcCommand(iface, network);
  // Benchlab's qdisc already there with every setting: nothing to do (its kind must match too).
  const unchanged = benchlabQdisc(lines)?.kind === kind && rows.every((row) => row.change === 'same');
  return { interface: iface, how: state.how, current: describeRoot(state.qdiscs), action: unchanged ? 'unchanged' : 'shape', command: unchanged ? null : command, rows, origin: 'preset' };
}

/** What the restore record keeps of the interface before a first shaping (an existing record keeps its older one). */
export function networkRecordOf(plan: NetworkPlan | null, state: HostNetworkState | null | undefined, existing: NetworkRecord | null): NetworkRecord | null {
  if (existing) return existing;
  if (!plan || plan.action !== 'shape' || !state) return null;
  return { interface: plan.interface, qdiscs: state.qdiscs };
}

/** One verdict per setting the preset asks for, from `tc qdisc show` after the apply. */
export function judgeNetwork(network: NetworkShaping, iface: string, after: string, tcError: string | null): KeyVerdict[] {
  const seen = observedShaping(after);
  return shapingValues(network).map(({ setting, value }) => {
    const observed = seen?.[setting];
    const ok = sameSetting(value, observed);
    const reason = ok
      ? null
      : tcError
        ? `tc refused it: ${tcError}`
        : seen === null
          ? `Benchlab's qdisc is not on ${iface} (${describeRoot(after)})`
          : observed === undefined
            ? `tc reads no ${SETTING_INFO[setting].label} back`
            : `tc reads back ${formatSetting(setting, observed)}`;
    return {
      kind: 'network',
      key: `${iface} ${SETTING_INFO[setting].label}`,
      expected: formatSetting(setting, value),
      observed: observed === undefined ? null : formatSetting(setting, observed),
      status: ok ? 'applied' : 'not effective',
      reason,
    };
  });
}

/** Whether a revert is done: the interface's egress qdiscs are again those the record kept. */
export function networkRestored(record: NetworkRecord, after: string): boolean {
  return sameEgress(record.qdiscs, after);
}
