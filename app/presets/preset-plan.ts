// The diff of a preset against one host: every key's current → new value, the files that will
// change with their new content, the network side (network-plan.ts), and the restore record (what the host held before Benchlab first
// changed it) that makes revert exact. Also the plan of a revert. Pure: main/ reads the host into a
// HostPresetState and carries the plan out.

import { z } from 'zod';
import { NetworkPlan, NetworkRecord, networkRecordOf, planNetwork, type HostNetworkState } from './network-plan.ts';
import { benchlabQdisc, parseQdiscShow } from './network-shaping.ts';
import { appliesTo, configuredLine, decidingLine, type LimitsFile, type ProcLimits } from './limits-conf.ts';
import {
  DROP_IN_PATHS,
  LIMITS_DROP_IN,
  limitLabel,
  normaliseDefinition,
  normaliseSysctlValue,
  RESTORE_FILE,
  renderLimitsDropIn,
  renderSysctlDropIn,
  SYSCTL_DROP_IN,
  sysctlKeyProblem,
  sysctlValueProblem,
  typesOf,
  type DropInPath,
  type PresetDefinition,
} from './presets.ts';

/** SELinux labels: user:role:type:level, the level with its categories (s0-s0:c0.c1023). */
const SELINUX_CONTEXT = /^[A-Za-z0-9_]+:[A-Za-z0-9_]+:[A-Za-z0-9_]+(:[A-Za-z0-9_.,:-]+)?$/;

/** A file's mode (as `stat -c %a` prints it), owner and group ids, and SELinux context where the host has SELinux on. */
export const FileMeta = z
  .object({
    mode: z.string().regex(/^[0-7]{3,4}$/, 'must be an octal mode'),
    uid: z.number().int().nonnegative(),
    gid: z.number().int().nonnegative(),
    context: z.string().max(255).regex(SELINUX_CONTEXT, 'must be an SELinux context').nullable(),
  })
  .strict();
export type FileMeta = z.infer<typeof FileMeta>;

/**
 * Benchlab's own new files: said explicitly, so neither a umask nor a setgid directory decides.
 * Also what a revert gives a file its journal row recorded no metadata for (rows from before
 * Benchlab recorded it), as every revert did then.
 */
export const NEW_FILE_META: FileMeta = { mode: '644', uid: 0, gid: 0, context: null };

/** Whether the file is as `recorded` says; a context counts only where both sides have one (SELinux on). */
export function sameFileMeta(observed: FileMeta | null, recorded: FileMeta): boolean {
  if (!observed) return false;
  const contexts = observed.context !== null && recorded.context !== null;
  return (
    Number.parseInt(observed.mode, 8) === Number.parseInt(recorded.mode, 8) &&
    observed.uid === recorded.uid &&
    observed.gid === recorded.gid &&
    (!contexts || observed.context === recorded.context)
  );
}

/** One of our files as it is on the host; base64 keeps its exact bytes for the restore record. */
export interface HostFile {
  text: string;
  base64: string;
  /** null when the host could not say (no `stat -c`). */
  meta: FileMeta | null;
}

export interface HostSysctl {
  /** null: the key does not exist in this kernel (or this namespace). */
  value: string | null;
  /** false when the host cannot write it (read-only or not namespaced); null when unknown (not root). */
  writable: boolean | null;
}

/** Everything a plan needs to know about a host, as main/ reads it. */
export interface HostPresetState {
  user: string;
  uid: number;
  groups: string[];
  sysctls: Record<string, HostSysctl>;
  /** limits.conf, then limits.d/*.conf in C order (our drop-in included when present). */
  limitsFiles: LimitsFile[];
  dropIns: Record<DropInPath, HostFile | null>;
  restore: RestoreRecord | null;
  /** Limits of Benchlab's current login on the host (from before any change). */
  sessionLimits: ProcLimits;
  /** The interface the preset or the restore record shapes, read only when one of them does. */
  network?: HostNetworkState | null;
}

/** What the host held before Benchlab first changed it: the file on the host and the journal rows. */
export const RestoreRecord = z
  .object({
    format: z.literal(1),
    createdAt: z.string(),
    /** Live value of each sysctl before Benchlab first set it. */
    sysctls: z.record(z.string(), z.string()),
    /** Base64 content of each file before Benchlab first wrote it; null: it did not exist. */
    files: z.record(z.string(), z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64').nullable()),
    /**
     * Mode, owner, group (and context) of each file that existed. Absent in records written before
     * Benchlab kept them: those files go back as NEW_FILE_META, as they always did.
     */
    meta: z.record(z.string(), FileMeta).optional(),
    /** The interface Benchlab shaped with tc, and its egress qdiscs before (absent: the network was never shaped). */
    network: NetworkRecord.optional(),
  })
  // The record is read back from the host: it may only ever name our own files and real sysctls,
  // so a damaged or planted record cannot make a revert remove or write anything else.
  .superRefine((record, ctx) => {
    for (const path of Object.keys(record.files)) {
      if (!(DROP_IN_PATHS as readonly string[]).includes(path)) ctx.addIssue({ code: 'custom', path: ['files', path], message: 'is not a file Benchlab writes' });
    }
    for (const path of Object.keys(record.meta ?? {})) {
      if (typeof record.files[path] !== 'string') ctx.addIssue({ code: 'custom', path: ['meta', path], message: 'is not a file the record keeps' });
    }
    for (const [key, value] of Object.entries(record.sysctls)) {
      const problem = sysctlKeyProblem(key) ?? sysctlValueProblem(key, value);
      if (problem) ctx.addIssue({ code: 'custom', path: ['sysctls', key], message: problem });
    }
  });
export type RestoreRecord = z.infer<typeof RestoreRecord>;
/** A record as Benchlab writes it now: with metadata (possibly empty). */
type RecordWithMeta = RestoreRecord & { meta: Record<string, FileMeta> };

export const SYSCTL_CHANGES = ['change', 'same', 'missing', 'unwritable'] as const;

export const SysctlPlanRow = z.object({
  key: z.string(),
  current: z.string().nullable(),
  next: z.string(),
  change: z.enum(SYSCTL_CHANGES),
  /** "preset": the preset sets it; "restore": an earlier apply changed it and this preset does not, so it goes back. */
  origin: z.enum(['preset', 'restore']),
  reason: z.string().nullable(),
});
export type SysctlPlanRow = z.infer<typeof SysctlPlanRow>;

export const LimitPlanRow = z.object({
  label: z.string(),
  domain: z.string(),
  type: z.string(),
  item: z.string(),
  /** Configured now for this exact domain, type and item, with the line that says so. */
  current: z.string().nullable(),
  currentSource: z.string().nullable(),
  next: z.string(),
  change: z.enum(['change', 'same']),
  /** What Benchlab's login has now, when the line applies to it. */
  loginNow: z.string().nullable(),
  note: z.string().nullable(),
});
export type LimitPlanRow = z.infer<typeof LimitPlanRow>;

export const FilePlan = z.object({
  path: z.string(),
  current: z.string().nullable(),
  next: z.string().nullable(),
  action: z.enum(['create', 'replace', 'remove', 'unchanged']),
});
export type FilePlan = z.infer<typeof FilePlan>;

export const PresetPlan = z.object({
  /** Changes whenever the host or the preset does: apply refuses a plan the user did not see. */
  planId: z.string(),
  presetId: z.string(),
  presetName: z.string(),
  hostId: z.number(),
  login: z.string(),
  sysctls: z.array(SysctlPlanRow),
  limits: z.array(LimitPlanRow),
  files: z.array(FilePlan),
  /** The network side: null when neither the preset nor an earlier apply shapes the network. */
  network: NetworkPlan.nullable(),
  restoreFile: z.object({ path: z.string(), exists: z.boolean() }),
  changes: z.number().int(),
  noChanges: z.boolean(),
  notes: z.array(z.string()),
});
export type PresetPlan = z.infer<typeof PresetPlan>;

function fileAction(current: string | null, next: string | null): FilePlan['action'] {
  if (current === next) return 'unchanged';
  if (current === null) return 'create';
  return next === null ? 'remove' : 'replace';
}

/** Why a sysctl cannot be set on this host, or null when it can be tried. */
/** Why a key cannot be read: a network namespace hides the net.* keys it does not namespace, so such a key may well be in the kernel. */
export function missingKeyReason(key: string): string {
  return key.startsWith('net.') ? 'not visible here: hidden by a network namespace, or not in this kernel' : 'key not in this kernel';
}

export function sysctlObstacle(key: string, sysctl: HostSysctl | undefined): { change: 'missing' | 'unwritable'; reason: string } | null {
  if (!sysctl || sysctl.value === null) return { change: 'missing', reason: missingKeyReason(key) };
  if (sysctl.writable === false) return { change: 'unwritable', reason: key.startsWith('net.') ? 'read-only on this host' : 'not namespaced here' };
  return null;
}

/** A stable short hash (FNV-1a, two seeds) of a JSON value. */
export function stableHash(value: unknown): string {
  const text = JSON.stringify(value);
  const round = (seed: number) => {
    let hash = seed;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(16).padStart(8, '0');
  };
  return round(0x811c9dc5) + round(0x5bd1e995);
}

export interface PlanSubject {
  presetId: string;
  hostId: number;
  /** How refusals name the host. */
  hostName?: string;
  definition: PresetDefinition;
}

/** The drop-ins this preset renders on this host: keys the kernel lacks are left out (sysctl --system would fail on them). */
export function desiredDropIns(definition: PresetDefinition, state: HostPresetState): Record<DropInPath, string | null> {
  const preset = normaliseDefinition(definition);
  const present = preset.sysctls.filter((sysctl) => state.sysctls[sysctl.key]?.value != null);
  return {
    [LIMITS_DROP_IN]: renderLimitsDropIn(preset.name, preset.limits),
    [SYSCTL_DROP_IN]: renderSysctlDropIn(preset.name, present),
  } as Record<DropInPath, string | null>;
}

export const LIMITS_CONF = '/etc/security/limits.conf';

/** The limits files as they will read after our drop-in is written (or removed). */
export function limitsFilesAfter(state: HostPresetState, limitsDropIn: string | null): LimitsFile[] {
  const others = state.limitsFiles.filter((file) => file.path !== LIMITS_DROP_IN);
  if (limitsDropIn === null) return others;
  // limits.conf is read first, then limits.d in C order.
  const order = (file: LimitsFile) => (file.path === LIMITS_CONF ? '' : file.path);
  return [...others, { path: LIMITS_DROP_IN, text: limitsDropIn }].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

export function planPreset(subject: PlanSubject, state: HostPresetState): PresetPlan {
  const preset = normaliseDefinition(subject.definition);
  const who = { user: state.user, uid: state.uid, groups: state.groups };
  const notes: string[] = [];

  const sysctls: SysctlPlanRow[] = preset.sysctls.map(({ key, value }) => {
    const host = state.sysctls[key];
    const current = host?.value ?? null;
    const obstacle = sysctlObstacle(key, host);
    if (obstacle) return { key, current, next: value, change: obstacle.change, origin: 'preset', reason: obstacle.reason };
    return { key, current, next: value, change: current === value ? 'same' : 'change', origin: 'preset', reason: null };
  });
  // Keys an earlier, unreverted apply changed that this preset does not set go back to what they were.
  for (const [key, original] of Object.entries(state.restore?.sysctls ?? {})) {
    if (preset.sysctls.some((sysctl) => sysctl.key === key)) continue;
    const current = state.sysctls[key]?.value ?? null;
    const next = normaliseSysctlValue(original);
    const obstacle = sysctlObstacle(key, state.sysctls[key]);
    sysctls.push(
      obstacle
        ? { key, current, next, change: obstacle.change, origin: 'restore', reason: obstacle.reason }
        : { key, current, next, change: current === next ? 'same' : 'change', origin: 'restore', reason: 'back to its value before Benchlab' },
    );
  }

  const desired = desiredDropIns(subject.definition, state);
  const files: FilePlan[] = DROP_IN_PATHS.map((path) => {
    const current = state.dropIns[path]?.text ?? null;
    return { path, current, next: desired[path], action: fileAction(current, desired[path]) };
  });

  const after = limitsFilesAfter(state, desired[LIMITS_DROP_IN]);
  const limits: LimitPlanRow[] = preset.limits.map((limit) => {
    const types = typesOf(limit.type);
    const configured = types.map((type) => configuredLine(state.limitsFiles, limit.domain, limit.item, type));
    const values = configured.map((line) => line?.value ?? null);
    const current = values.every((value) => value === values[0]) ? values[0]! : values.map((value, i) => `${types[i]} ${value ?? 'not set'}`).join(', ');
    const applies = appliesTo(limit.domain, who);
    const now = state.sessionLimits[limit.item as keyof ProcLimits];
    const loginNow = applies && now ? types.map((type) => now[type]).join(' / ') : null;
    let note: string | null = null;
    if (!applies) {
      note = state.uid === 0 && (limit.domain === '*' || limit.domain.startsWith('@'))
        ? `pam_limits does not apply "${limit.domain}" lines to root, so Benchlab's login (root) cannot verify it`
        : `applies to ${limit.domain}; Benchlab logs in as ${state.user} and cannot verify it`;
    } else {
      const winners = types.map((type) => decidingLine(after, who, limit.item, type));
      const other = winners.find((line) => line && !line.source.startsWith(`${LIMITS_DROP_IN}:`));
      if (other) note = `overridden for ${state.user} by ${other.source} (${other.domain} ${other.type} ${other.item} ${other.value})`;
    }
    return {
      label: limitLabel(limit),
      domain: limit.domain,
      type: limit.type,
      item: limit.item,
      current,
      currentSource: configured.find((line) => line)?.source ?? null,
      next: limit.value,
      change: values.every((value) => value === limit.value) ? 'same' : 'change',
      loginNow,
      note,
    };
  });

  // Refuses (an ApiError) what could not be applied or reverted exactly, before anything changes.
  const network = planNetwork(preset.network, state.network, state.restore?.network ?? null, subject.hostName ?? 'the host');
  if (network && network.origin === 'preset') {
    notes.push(`The network settings shape everything leaving ${network.interface}, Benchlab's own SSH link included when it uses that interface.`);
  }
  if (state.restore) notes.push(`This host still carries changes from an earlier Benchlab apply (${RESTORE_FILE}); revert puts back what was there before it.`);
  if (preset.limits.length > 0) notes.push('Limits apply to new logins: processes already running keep theirs until restarted.');
  for (const limit of preset.limits) {
    const soft = preset.limits.some((other) => other.domain === limit.domain && other.item === limit.item && typesOf(other.type).includes('soft'));
    // pam_limits then keeps the soft limit of the process that runs it (sshd), which may be far lower.
    if (limit.type === 'hard' && !soft) notes.push(`${limit.domain} has a hard ${limit.item} line without a soft one: logins may get sshd's own soft limit (often 1024).`);
  }
  // The rows the table marks "change" (the files are how they are made, not more changes).
  const networkChanges = network?.action === 'unchanged' ? 0 : (network?.rows.filter((row) => row.change === 'change').length ?? 0);
  const changes = sysctls.filter((row) => row.change === 'change').length + limits.filter((row) => row.change === 'change').length + networkChanges;
  const filesChanged = files.filter((file) => file.action !== 'unchanged').length;
  const body = { presetId: subject.presetId, hostId: subject.hostId, sysctls, limits, files, network, restore: state.restore !== null };
  return {
    planId: stableHash(body),
    presetId: subject.presetId,
    presetName: preset.name,
    hostId: subject.hostId,
    login: state.user,
    sysctls,
    limits,
    files,
    network,
    restoreFile: { path: RESTORE_FILE, exists: state.restore !== null },
    changes,
    noChanges: changes === 0 && filesChanged === 0 && (network === null || network.action === 'unchanged'),
    notes,
  };
}

/**
 * The restore record to write before applying: an existing one keeps its (older, truer) values;
 * anything this plan changes for the first time is added with its current value.
 */
export function extendRestoreRecord(existing: RestoreRecord | null, plan: PresetPlan, state: HostPresetState, now: string): RestoreRecord {
  const record: RecordWithMeta = existing
    ? { ...existing, sysctls: { ...existing.sysctls }, files: { ...existing.files }, meta: { ...existing.meta } }
    : { format: 1, createdAt: now, sysctls: {}, files: {}, meta: {} };
  for (const row of plan.sysctls) {
    if (row.change !== 'change' || Object.hasOwn(record.sysctls, row.key) || row.current === null) continue;
    record.sysctls[row.key] = row.current;
  }
  for (const file of plan.files) {
    if (file.action === 'unchanged' || Object.hasOwn(record.files, file.path)) continue;
    const before = state.dropIns[file.path as DropInPath];
    record.files[file.path] = before?.base64 ?? null;
    if (before?.meta) record.meta[file.path] = before.meta;
  }
  const network = networkRecordOf(plan.network, state.network, existing?.network ?? null);
  if (network) record.network = network;
  return record;
}

/** What a file written by apply gets: a replaced file keeps its own mode, owner and group; a new one is Benchlab's. */
export function appliedFileMeta(path: DropInPath, state: HostPresetState): FileMeta {
  return state.dropIns[path]?.meta ?? NEW_FILE_META;
}

/**
 * The restore record's own file: it holds copies of the files it records, so it is no more
 * readable than the most private of them (0600 when one of them is not world-readable).
 */
export function restoreFileMeta(record: RestoreRecord): FileMeta {
  const copiesPrivateFile = Object.values(record.meta ?? {}).some((meta) => (Number.parseInt(meta.mode, 8) & 0o004) === 0);
  return copiesPrivateFile ? { ...NEW_FILE_META, mode: '600' } : NEW_FILE_META;
}

/** What one apply changed, from before it: the `previous` of its journal row. */
export function previousOf(plan: PresetPlan, state: HostPresetState): RestoreRecord {
  return extendRestoreRecord(null, plan, state, '');
}

/** The restore record rebuilt from journal rows (oldest first) when the host's file is gone. */
export function restoreFromJournal(previous: readonly RestoreRecord[]): RestoreRecord | null {
  if (previous.length === 0) return null;
  const record: RecordWithMeta = { format: 1, createdAt: previous[0]!.createdAt, sysctls: {}, files: {}, meta: {} };
  for (const entry of previous) {
    for (const [key, value] of Object.entries(entry.sysctls)) if (!Object.hasOwn(record.sysctls, key)) record.sysctls[key] = value;
    for (const [path, content] of Object.entries(entry.files)) {
      if (Object.hasOwn(record.files, path)) continue;
      record.files[path] = content;
      // Rows from before metadata was recorded have none: that file reverts as it always did.
      const meta = entry.meta?.[path];
      if (meta) record.meta[path] = meta;
    }
    if (entry.network && !record.network) record.network = entry.network;
  }
  return record;
}

export interface RevertPlan {
  sysctls: Array<{ key: string; current: string | null; original: string; change: 'change' | 'same' | 'missing' }>;
  /** `meta`: what the file had before, null where the record predates metadata (then NEW_FILE_META is written). */
  files: Array<{ path: string; original: string | null; meta: FileMeta | null; action: 'write' | 'remove' | 'unchanged' }>;
  /** `remove`: Benchlab's root qdisc is on the interface and goes, which gives the kernel's default back. */
  network: { interface: string; original: string; action: 'remove' | 'unchanged' } | null;
}

/** Whether the file on the host is back as the record says: its bytes, and its mode, owner and group where recorded. */
export function fileRestored(current: HostFile | null, original: string | null, meta: FileMeta | null): boolean {
  if ((current?.base64 ?? null) !== original) return false;
  return current === null || meta === null || sameFileMeta(current.meta, meta);
}

/** What a revert must do to get from the host's state back to the record. */
export function planRevert(state: HostPresetState, record: RestoreRecord): RevertPlan {
  const sysctls = Object.entries(record.sysctls).map(([key, original]) => {
    const current = state.sysctls[key]?.value ?? null;
    const normal = normaliseSysctlValue(original);
    return { key, current, original: normal, change: current === null ? ('missing' as const) : current === normal ? ('same' as const) : ('change' as const) };
  });
  const files = Object.entries(record.files).map(([path, original]) => {
    const meta = (original !== null && record.meta?.[path]) || null;
    const current = state.dropIns[path as DropInPath] ?? null;
    const action = fileRestored(current, original, meta) ? ('unchanged' as const) : original === null ? ('remove' as const) : ('write' as const);
    return { path, original, meta, action };
  });
  const shaped = record.network && state.network ? benchlabQdisc(parseQdiscShow(state.network.qdiscs)) !== null : false;
  const network = record.network ? { interface: record.network.interface, original: record.network.qdiscs, action: shaped ? ('remove' as const) : ('unchanged' as const) } : null;
  return { sysctls, files, network };
}
