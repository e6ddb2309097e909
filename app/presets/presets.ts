// Presets of host tuning (pam_limits lines, sysctls, and a network side shaped with tc): the model,
// its validation — which names the offending field and refuses anything that could escape a config
// line, a /proc/sys path or a command's argument before any remote action — and the rendering of the
// two drop-in files Benchlab owns on a host.

import { z } from 'zod';
import { hasControlCharacters } from '../common/text.ts';
import { issueMessage } from '../common/zod-issues.ts';
import { NetworkShaping, networkProblems } from './network-shaping.ts';

/** The files Benchlab writes on a host; "90-" so they come after the distribution's own. */
export const LIMITS_DROP_IN = '/etc/security/limits.d/90-benchlab.conf';
export const SYSCTL_DROP_IN = '/etc/sysctl.d/90-benchlab.conf';
export const DROP_IN_PATHS = [LIMITS_DROP_IN, SYSCTL_DROP_IN] as const;
export type DropInPath = (typeof DROP_IN_PATHS)[number];

/** Where the host keeps what Benchlab changed, written before anything changes (see preset-plan.ts). */
export const RESTORE_DIR = '/var/lib/benchlab';
export const RESTORE_FILE = `${RESTORE_DIR}/presets-restore.json`;

/** limits.conf types; "-" sets soft and hard together. */
export const LIMIT_TYPES = ['soft', 'hard', '-'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

/**
 * The limits.conf items Benchlab sets and can verify: each maps to its /proc/self/limits row, and
 * `factor` converts limits.conf units (KB for sizes) to the bytes that row shows.
 */
export const LIMIT_ITEMS = {
  nofile: { row: 'Max open files', factor: 1, label: 'open files' },
  nproc: { row: 'Max processes', factor: 1, label: 'processes' },
  memlock: { row: 'Max locked memory', factor: 1024, label: 'locked memory (KB)' },
  stack: { row: 'Max stack size', factor: 1024, label: 'stack size (KB)' },
  core: { row: 'Max core file size', factor: 1024, label: 'core file size (KB)' },
} as const;
export type LimitItem = keyof typeof LIMIT_ITEMS;
export const LIMIT_ITEM_NAMES = Object.keys(LIMIT_ITEMS) as LimitItem[];

/** Linux refuses an open-files limit above this (fs.nr_open's ceiling on 64-bit kernels). */
export const NOFILE_CEILING = 1073741816;

/** Top-level sysctl directories a preset may touch. */
const SYSCTL_ROOTS = ['net', 'fs', 'kernel', 'vm', 'user'];

type SysctlShape = { kind: 'int'; min: number; max: number } | { kind: 'ints'; count: number } | { kind: 'port-range' };

const INT32_MAX = 2147483647;
const int = (min: number, max: number): SysctlShape => ({ kind: 'int', min, max });

/** The value shapes of the sysctls benchmark tuning commonly touches; other keys get a generic check. */
export const KNOWN_SYSCTLS: Record<string, SysctlShape> = {
  'net.ipv4.ip_local_port_range': { kind: 'port-range' },
  'net.ipv4.tcp_tw_reuse': int(0, 2),
  'net.ipv4.tcp_fin_timeout': int(1, INT32_MAX),
  'net.core.somaxconn': int(0, INT32_MAX),
  'net.ipv4.tcp_max_syn_backlog': int(0, INT32_MAX),
  'net.core.netdev_max_backlog': int(0, INT32_MAX),
  'net.ipv4.tcp_max_tw_buckets': int(0, INT32_MAX),
  'net.ipv4.tcp_syncookies': int(0, 2),
  'net.ipv4.tcp_slow_start_after_idle': int(0, 1),
  'net.core.rmem_max': int(0, INT32_MAX),
  'net.core.wmem_max': int(0, INT32_MAX),
  'net.ipv4.tcp_rmem': { kind: 'ints', count: 3 },
  'net.ipv4.tcp_wmem': { kind: 'ints', count: 3 },
  'fs.file-max': int(0, Number.MAX_SAFE_INTEGER),
  'fs.nr_open': int(1024, NOFILE_CEILING),
  'vm.swappiness': int(0, 200),
};

export const LimitSetting = z.object({ domain: z.string(), type: z.string(), item: z.string(), value: z.string() }).strict();
export type LimitSetting = z.infer<typeof LimitSetting>;

export const SysctlSetting = z.object({ key: z.string(), value: z.string() }).strict();
export type SysctlSetting = z.infer<typeof SysctlSetting>;

export interface PresetProblem {
  /** The field as a path into the definition, e.g. `limits.2.value`. */
  field: string;
  message: string;
}

const PresetShape = z
  .object({
    name: z.string({ error: 'must be text' }),
    description: z.string({ error: 'must be text' }).default(''),
    limits: z.array(LimitSetting, { error: 'must be a list' }).max(64, 'must hold at most 64 lines').default([]),
    sysctls: z.array(SysctlSetting, { error: 'must be a list' }).max(64, 'must hold at most 64 keys').default([]),
    /** Bandwidth, delay and loss on the host's egress (tc); null: the network is left alone. */
    network: NetworkShaping.nullable().default(null),
  })
  .strict();

/** What a user edits: everything of a preset but its identity. Refines to the full semantic checks. */
export const PresetDefinition = PresetShape.superRefine((definition, ctx) => {
  for (const problem of definitionProblems(definition)) {
    ctx.addIssue({ code: 'custom', path: problem.field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), message: problem.message });
  }
});
export type PresetDefinition = z.output<typeof PresetShape>;
export type PresetDefinitionInput = z.input<typeof PresetShape>;

export const PresetId = z
  .string({ error: 'must be a preset id' })
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a preset id (lower-case letters, digits and "-")');

export const Preset = PresetShape.extend({
  id: PresetId,
  builtIn: z.boolean(),
  /** The preset this one was duplicated from, if any. */
  basedOn: z.string().nullable(),
});
export type Preset = z.infer<typeof Preset>;

/** A built-in preset file in resources/presets/. */
export const PresetFile = PresetShape.extend({ id: PresetId }).strict();

/** User presets are stored rows; their ids say so, so they never collide with a built-in file's id. */
export function userPresetId(rowId: number): string {
  return `user-${rowId}`;
}

export function userPresetRowId(id: string): number | null {
  const match = /^user-(\d+)$/.exec(id);
  return match ? Number(match[1]) : null;
}

// ---------------------------------------------------------------------------------------------
// Validation

/** Problems common to every text that ends up in a config line or a command. */
function lineProblem(text: string): string | null {
  if (/[\r\n]/.test(text)) return 'must not contain line breaks';
  if (hasControlCharacters(text)) return 'must not contain control characters';
  if (text.includes(';')) return 'must not contain ";"';
  return null;
}

function domainProblem(domain: string): string | null {
  if (domain.trim() === '') return 'is required';
  const line = lineProblem(domain);
  if (line) return line;
  if (domain.includes('/') || domain.includes('..')) return 'must not contain "/" or ".." (path traversal)';
  if (domain === '*' || /^@[a-z_][a-z0-9_.-]{0,31}$/i.test(domain) || /^[a-z_][a-z0-9_.-]{0,31}\$?$/i.test(domain)) return null;
  return 'must be "*" (all users but root), a user name, or "@group"';
}

/** Normalises a limit value: "infinity" and "-1" mean "unlimited" to pam_limits. */
export function normaliseLimitValue(value: string): string {
  const trimmed = value.trim().toLowerCase();
  return trimmed === 'infinity' || trimmed === '-1' ? 'unlimited' : trimmed;
}

function limitValueProblem(item: string, value: string): string | null {
  if (value.trim() === '') return 'is required';
  const line = lineProblem(value);
  if (line) return line;
  const normal = normaliseLimitValue(value);
  if (normal === 'unlimited') return item === 'nofile' ? 'nofile cannot be "unlimited" on Linux: give a number' : null;
  if (!/^\d+$/.test(normal)) return 'must be a number or "unlimited"';
  const number = Number(normal);
  if (!Number.isSafeInteger(number)) return 'is too large';
  if (item === 'nofile' && number > NOFILE_CEILING) return `must be at most ${NOFILE_CEILING} (the Linux ceiling for open files)`;
  return null;
}

export function sysctlKeyProblem(key: string): string | null {
  if (key.trim() === '') return 'is required';
  const line = lineProblem(key);
  if (line) return line;
  // The key becomes a path under /proc/sys: nothing may climb out of it.
  if (key.includes('/') || key.includes('..') || key.includes('\\')) return 'must not contain "/", "\\" or ".." (path traversal)';
  if (!/^[a-z0-9_]+(\.[A-Za-z0-9_-]+)+$/.test(key)) return 'must be a sysctl name such as net.core.somaxconn';
  if (!SYSCTL_ROOTS.includes(key.split('.')[0]!)) return `must start with one of ${SYSCTL_ROOTS.map((root) => `${root}.`).join(', ')}`;
  return null;
}

export function sysctlValueProblem(key: string, value: string): string | null {
  if (value.trim() === '') return 'is required';
  const line = lineProblem(value);
  if (line) return line;
  const normal = normaliseSysctlValue(value);
  const shape = KNOWN_SYSCTLS[key];
  if (shape?.kind === 'int') {
    if (!/^-?\d+$/.test(normal)) return `must be a number (${key} takes a whole number)`;
    const number = Number(normal);
    if (number < shape.min || number > shape.max) return `must be between ${shape.min} and ${shape.max}`;
    return null;
  }
  if (shape?.kind === 'ints') {
    const parts = normal.split(' ');
    if (parts.length !== shape.count || !parts.every((part) => /^\d+$/.test(part))) return `must be ${shape.count} numbers separated by spaces`;
    return null;
  }
  if (shape?.kind === 'port-range') {
    const match = /^(\d+) (\d+)$/.exec(normal);
    if (!match) return 'must be two port numbers, "low high"';
    const [low, high] = [Number(match[1]), Number(match[2])];
    if (low < 1 || high > 65535) return 'ports must be between 1 and 65535';
    if (low > high) return 'the low port must not be above the high port';
    return null;
  }
  if (!/^[A-Za-z0-9_.:,+-]+( [A-Za-z0-9_.:,+-]+)*$/.test(normal)) return 'may hold only letters, digits, spaces and _ . : , + -';
  return null;
}

/** sysctl prints multi-part values with tabs; people write them with one space. */
export function normaliseSysctlValue(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

/** The limit types a line sets: "-" is both. */
export function typesOf(type: string): Array<'soft' | 'hard'> {
  return type === '-' ? ['soft', 'hard'] : type === 'soft' || type === 'hard' ? [type] : [];
}

function definitionProblems(definition: PresetDefinition): PresetProblem[] {
  const problems: PresetProblem[] = [];
  const add = (field: string, message: string | null) => {
    if (message) problems.push({ field, message });
  };

  const name = definition.name.trim();
  add('name', name === '' ? 'is required' : name.length > 64 ? 'must be at most 64 characters' : hasControlCharacters(name) ? 'must not contain line breaks or control characters' : null);
  add('description', definition.description.length > 500 ? 'must be at most 500 characters' : hasControlCharacters(definition.description) ? 'must not contain line breaks or control characters' : null);
  if (definition.limits.length === 0 && definition.sysctls.length === 0 && !definition.network) add('sysctls', 'a preset needs at least one limit, sysctl or network setting');
  if (definition.network) problems.push(...networkProblems(definition.network));

  const seenLimits = new Map<string, number>();
  const values = new Map<string, { soft?: number; hard?: number }>();
  definition.limits.forEach((limit, index) => {
    const at = `limits.${index}`;
    add(`${at}.domain`, domainProblem(limit.domain));
    const typeKnown = (LIMIT_TYPES as readonly string[]).includes(limit.type);
    add(`${at}.type`, typeKnown ? null : `unknown limit type "${limit.type}" (use soft, hard or -)`);
    const itemKnown = Object.hasOwn(LIMIT_ITEMS, limit.item);
    add(`${at}.item`, itemKnown ? null : `unknown limit item "${limit.item}" (Benchlab sets ${LIMIT_ITEM_NAMES.join(', ')})`);
    const valueProblem = limitValueProblem(limit.item, limit.value);
    add(`${at}.value`, valueProblem);
    if (!typeKnown || !itemKnown) return;
    for (const type of typesOf(limit.type)) {
      const id = `${limit.domain.trim()} ${type} ${limit.item}`;
      const first = seenLimits.get(id);
      if (first !== undefined && first !== index) {
        add(at, `sets ${id} again (limits.${first} already does)`);
        return;
      }
      seenLimits.set(id, index);
      if (!valueProblem) {
        const normal = normaliseLimitValue(limit.value);
        const pair = values.get(`${limit.domain.trim()} ${limit.item}`) ?? {};
        pair[type] = normal === 'unlimited' ? Infinity : Number(normal);
        values.set(`${limit.domain.trim()} ${limit.item}`, pair);
        if (pair.soft !== undefined && pair.hard !== undefined && pair.soft > pair.hard) {
          add(`${at}.value`, `the soft ${limit.item} limit must not be above the hard one for ${limit.domain.trim()}`);
        }
      }
    }
  });

  const seenKeys = new Map<string, number>();
  definition.sysctls.forEach((sysctl, index) => {
    const at = `sysctls.${index}`;
    const keyProblem = sysctlKeyProblem(sysctl.key);
    add(`${at}.key`, keyProblem);
    add(`${at}.value`, sysctlValueProblem(sysctl.key.trim(), sysctl.value));
    if (keyProblem) return;
    const first = seenKeys.get(sysctl.key.trim());
    if (first !== undefined) add(`${at}.key`, `${sysctl.key.trim()} appears twice (also sysctls.${first})`);
    else seenKeys.set(sysctl.key.trim(), index);
  });
  return problems;
}

/** Every problem of a definition as typed (for forms), in field order; empty when it is valid. */
export function presetProblems(input: unknown): PresetProblem[] {
  const parsed = PresetShape.safeParse(input);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || 'preset',
      message: issueMessage(issue),
    }));
  }
  return definitionProblems(parsed.data);
}

/** Field → first message, for showing next to inputs. */
export function presetFieldErrors(input: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const problem of presetProblems(input)) errors[problem.field] ??= problem.message;
  return errors;
}

/** The definition with surrounding blanks removed and values in their canonical spelling. */
export function normaliseDefinition(definition: PresetDefinition): PresetDefinition {
  return {
    name: definition.name.trim(),
    description: definition.description.trim(),
    limits: definition.limits.map((limit) => ({
      domain: limit.domain.trim(),
      type: limit.type,
      item: limit.item,
      value: normaliseLimitValue(limit.value),
    })),
    sysctls: definition.sysctls.map((sysctl) => ({ key: sysctl.key.trim(), value: normaliseSysctlValue(sysctl.value) })),
    network: definition.network ? { ...definition.network, interface: definition.network.interface.trim() } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Drop-in rendering. No timestamps: the same preset must render to the same bytes (idempotence).

function header(presetName: string, what: string): string {
  return (
    `# ${what} written by Benchlab for the preset "${presetName}".\n` +
    `# Benchlab's revert removes this file or puts back what it held before; edit the preset, not this file.\n`
  );
}

/** /etc/security/limits.d/90-benchlab.conf, or null when the preset sets no limits. */
export function renderLimitsDropIn(presetName: string, limits: readonly LimitSetting[]): string | null {
  if (limits.length === 0) return null;
  const width = (pick: (limit: LimitSetting) => string) => Math.max(...limits.map((limit) => pick(limit).length));
  const [domainWidth, typeWidth, itemWidth] = [width((l) => l.domain), width((l) => l.type), width((l) => l.item)];
  const lines = limits.map(
    (limit) => `${limit.domain.padEnd(domainWidth)}  ${limit.type.padEnd(typeWidth)}  ${limit.item.padEnd(itemWidth)}  ${normaliseLimitValue(limit.value)}`,
  );
  return `${header(presetName, 'pam_limits settings')}${lines.join('\n')}\n`;
}

/** /etc/sysctl.d/90-benchlab.conf, or null when there is nothing to set. */
export function renderSysctlDropIn(presetName: string, sysctls: readonly SysctlSetting[]): string | null {
  if (sysctls.length === 0) return null;
  const lines = sysctls.map((sysctl) => `${sysctl.key} = ${normaliseSysctlValue(sysctl.value)}`);
  return `${header(presetName, 'Kernel settings')}${lines.join('\n')}\n`;
}

/** The /proc/sys path of a validated key. */
export function sysctlPath(key: string): string {
  return `/proc/sys/${key.replace(/\./g, '/')}`;
}

/** How a limit line reads to a person: `root hard nofile`. */
export function limitLabel(limit: Pick<LimitSetting, 'domain' | 'type' | 'item'>): string {
  return `${limit.domain} ${limit.type === '-' ? 'soft+hard' : limit.type} ${limit.item}`;
}
