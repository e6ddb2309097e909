// The remote side of presets, as POSIX sh over any HostTransport: read what a plan needs (identity,
// limits, sysctls with writability, our files byte-exact as base64 with their mode, owner, group
// and SELinux context), write files atomically (temp file in the same directory given its mode,
// owner, group and context, then rename), set sysctls live with `sysctl -w`, and read a fresh
// login's limits. Root work goes through runPrivileged only; every value reaching a command line
// was validated by app/presets/presets.ts and is shell-quoted here anyway.

import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { parseProcLimits, type ProcLimits } from '../../../app/presets/limits-conf.ts';
import { FileMeta, LIMITS_CONF, RestoreRecord, type HostFile, type HostPresetState, type HostSysctl } from '../../../app/presets/preset-plan.ts';
import { DROP_IN_PATHS, normaliseSysctlValue, RESTORE_FILE, SYSCTL_DROP_IN, sysctlPath, type DropInPath } from '../../../app/presets/presets.ts';
import type { LiveWrite } from '../../../app/presets/preset-verify.ts';
import { splitSections } from '../../../app/common/script-sections.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { runPrivileged } from '../hosts/privileged.ts';

const MARKER = '@@benchlab-preset@@';
const TIMEOUT_MS = 30_000;

export interface RemoteAccess {
  transport: HostTransport;
  sudoPassword: string | undefined;
}

/**
 * Names each script in its first line, so a process list (or a test that must stop an apply at
 * a chosen point) can tell the steps apart.
 */
export const SCRIPT_STEPS = ['read-identity', 'read-host', 'write-restore', 'write-drop-ins', 'set-live', 'read-back', 'remove-restore'] as const;
export type ScriptStep = (typeof SCRIPT_STEPS)[number];
/** The network side's scripts (host-network-io.ts): run only for presets that shape the network. */
export const NETWORK_SCRIPT_STEPS = ['read-network', 'shape-network', 'unshape-network'] as const;
type AnyStep = ScriptStep | (typeof NETWORK_SCRIPT_STEPS)[number];

function script(step: AnyStep, body: string): string {
  return `# benchlab-preset: ${step}\nLC_ALL=C\nexport LC_ALL\nm() { printf '\\n%s %s\\n' ${shellQuote(MARKER)} "$1"; }\n${body}`;
}

/** Output of a script, split at its marker lines: section name → lines, kept as written. */
export function sections(text: string): Map<string, string[]> {
  return splitSections(text, MARKER);
}

export function said(result: { stdout: string; stderr: string; code: number | null }): string {
  return (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-3).join(' ').slice(0, 300);
}

/** Runs as root: directly when the login is root or no password is needed, else sudo -S. */
export async function runAsRoot(access: RemoteAccess, step: AnyStep, body: string) {
  return runPrivileged(access.transport, `sh -c ${shellQuote(script(step, body))}`, { sudoPassword: access.sudoPassword, timeoutMs: TIMEOUT_MS });
}

export async function runAsLogin(transport: HostTransport, step: AnyStep, body: string) {
  return transport.exec(`sh -c ${shellQuote(script(step, body))}`, { timeoutMs: TIMEOUT_MS });
}

function requireSection(found: Map<string, string[]>, name: string, what: string, result: { stdout: string; stderr: string; code: number | null }): string[] {
  const lines = found.get(name);
  if (!lines) throw new ApiError('unavailable', `cannot read ${what} on the host${said(result) ? `: ${said(result)}` : ''}`);
  return lines;
}

/** Sets `selinux=1` where the host has SELinux on, so contexts are read and set only there. */
const SELINUX_PROBE = `selinux=0
if [ -e /sys/fs/selinux/enforce ]; then selinux=1
elif command -v getenforce >/dev/null 2>&1; then case "$(getenforce 2>/dev/null)" in Enforcing|Permissive) selinux=1;; esac
fi
`;

// ---------------------------------------------------------------------------------------------
// Reading

const READ_IDENTITY = `m id
id -un
id -u
id -Gn
m limits
cat /proc/self/limits
m end
`;

/** Reads the sysctls `keys` (with writability when root) and files; the body of read-host and read-back. */
function readHostBody(keys: readonly string[], files: readonly string[], listLimitsDir: boolean): string {
  const sysctlLines = keys.map((key) => `k ${shellQuote(key)} ${shellQuote(sysctlPath(key))}`).join('\n');
  const fileLines = files.map((path) => `f ${shellQuote(path)}`).join('\n');
  return `root=0
[ "$(id -u)" = 0 ] && root=1
${SELINUX_PROBE}k() {
  m "sysctl $1"
  if [ ! -e "$2" ]; then echo missing; return; fi
  if [ "$root" = 1 ]; then if [ -w "$2" ]; then echo rw; else echo ro; fi; else echo unknown; fi
  cat "$2" 2>/dev/null
}
f() {
  m "file $1"
  if [ ! -f "$1" ]; then echo missing
  elif [ ! -r "$1" ]; then echo unreadable
  else
    echo present
    meta=$(stat -c '%a %u %g' "$1" 2>/dev/null) || meta=
    context=
    if [ "$selinux" = 1 ]; then context=$(stat -c %C "$1" 2>/dev/null) || context=; fi
    echo "meta $meta $context"
    base64 < "$1"
  fi
}
m tools
command -v base64 >/dev/null 2>&1 && echo base64
${sysctlLines}
${fileLines}
${listLimitsDir ? 'for x in /etc/security/limits.d/*.conf; do [ -f "$x" ] && f "$x"; done' : ''}
m end
`;
}

/** The `meta MODE UID GID [CONTEXT]` line; null where stat said nothing usable, the context alone dropped when odd. */
function decodeMeta(line: string | undefined): FileMeta | null {
  const [mode, uid, gid, context] = (line ?? '').split(/\s+/).slice(1);
  const meta = FileMeta.safeParse({ mode, uid: Number(uid), gid: Number(gid), context: context ?? null });
  if (meta.success) return meta.data;
  return FileMeta.safeParse({ mode, uid: Number(uid), gid: Number(gid), context: null }).data ?? null;
}

const UNREADABLE = 'unreadable';

/** A file as read (with its metadata), null when missing, UNREADABLE when the login may not read it. */
function decodeFile(lines: string[] | undefined): HostFile | null | typeof UNREADABLE {
  if (!lines || lines[0] === 'missing') return null;
  if (lines[0] === UNREADABLE) return UNREADABLE;
  const base64 = lines.slice(2).join('').trim();
  return { text: Buffer.from(base64, 'base64').toString('utf8'), base64, meta: decodeMeta(lines[1]) };
}

function decodeSysctl(lines: string[] | undefined): HostSysctl {
  if (!lines || lines[0] === 'missing') return { value: null, writable: null };
  const writable = lines[0] === 'rw' ? true : lines[0] === 'ro' ? false : null;
  return { value: normaliseSysctlValue(lines.slice(1).join(' ')), writable };
}

export interface ReadOptions {
  /** Sysctls to read besides those the restore record names. */
  keys: readonly string[];
}

export interface HostReading {
  state: HostPresetState;
  /** Why the host's restore file was not used, when it exists but cannot be trusted. */
  restoreProblem: string | null;
  nrOpen: string | null;
}

/** Reads everything a plan needs; root reads (when possible) tell writable sysctls apart. */
export async function readHost(access: RemoteAccess, options: ReadOptions): Promise<HostReading> {
  const identity = await runAsLogin(access.transport, 'read-identity', READ_IDENTITY);
  const who = sections(identity.stdout);
  const [user, uid, groups] = requireSection(who, 'id', 'the login identity', identity);
  if (!user || !/^\d+$/.test(uid ?? '')) throw new ApiError('unavailable', `cannot read the login identity on the host: ${said(identity)}`);
  const sessionLimits = parseProcLimits((who.get('limits') ?? []).join('\n'));

  // The restore file may name keys the preset does not: read it first, then those keys too.
  const first = await readFilesAndSysctls(access, [...options.keys, 'fs.nr_open'], true);
  let restore: RestoreRecord | null = null;
  let restoreProblem: string | null = null;
  const restoreFile = first.files.get(RESTORE_FILE) ?? null;
  if (restoreFile === UNREADABLE) {
    // 0600 when it copies a private file: a login without root cannot read it, the journal can.
    restoreProblem = `${RESTORE_FILE} on the host can be read only as root; Benchlab's journal is used instead`;
  } else if (restoreFile) {
    try {
      restore = RestoreRecord.parse(JSON.parse(restoreFile.text));
    } catch (error) {
      restoreProblem = `${RESTORE_FILE} on the host cannot be used (${messageOf(error).split('\n')[0]}); Benchlab's journal is used instead`;
    }
  }
  const extraKeys = Object.keys(restore?.sysctls ?? {}).filter((key) => !first.sysctls.has(key));
  const extra = extraKeys.length > 0 ? await readFilesAndSysctls(access, extraKeys, false) : null;
  const sysctls: Record<string, HostSysctl> = Object.fromEntries([...first.sysctls, ...(extra?.sysctls ?? [])]);

  const limitsFiles = [...first.files]
    .filter(([path]) => path === LIMITS_CONF || path.startsWith('/etc/security/limits.d/'))
    .flatMap(([path]) => {
      const file = readable(first.files, path);
      return file ? [{ path, text: file.text }] : [];
    });
  const dropIns = Object.fromEntries(DROP_IN_PATHS.map((path) => [path, readable(first.files, path)])) as Record<DropInPath, HostFile | null>;
  return {
    state: { user, uid: Number(uid), groups: (groups ?? '').split(/\s+/).filter(Boolean), sysctls, limitsFiles, dropIns, restore, sessionLimits },
    restoreProblem,
    nrOpen: sysctls['fs.nr_open']?.value ?? null,
  };
}

/** A file a plan needs: one the login may not read stops the plan, saying which. */
function readable(files: Map<string, HostFile | null | typeof UNREADABLE>, path: string): HostFile | null {
  const file = files.get(path) ?? null;
  if (file === UNREADABLE) throw new ApiError('unavailable', `cannot read ${path} on the host (permission denied)`);
  return file;
}

async function readFilesAndSysctls(access: RemoteAccess, keys: readonly string[], withFiles: boolean) {
  const files = withFiles ? [LIMITS_CONF, SYSCTL_DROP_IN, RESTORE_FILE] : [];
  const body = readHostBody([...new Set(keys)], files, withFiles);
  // Root tells which sysctls are writable; without a way to root, read what a login can.
  const canBeRoot = access.transport.user === 'root' || access.sudoPassword !== undefined;
  const result = canBeRoot ? await runAsRoot(access, 'read-host', body) : await runAsLogin(access.transport, 'read-host', body);
  const found = sections(result.stdout);
  if (!found.has('end')) throw new ApiError('unavailable', `cannot read the host's settings${said(result) ? `: ${said(result)}` : ''}`);
  if (withFiles && !(found.get('tools') ?? []).includes('base64')) {
    throw new ApiError('unavailable', 'the host has no base64 command (coreutils or busybox), which Benchlab needs to copy files exactly');
  }
  const sysctls = new Map<string, HostSysctl>();
  const read = new Map<string, HostFile | null | typeof UNREADABLE>();
  for (const [name, lines] of found) {
    if (name.startsWith('sysctl ')) sysctls.set(name.slice('sysctl '.length), decodeSysctl(lines));
    if (name.startsWith('file ')) read.set(name.slice('file '.length), decodeFile(lines));
  }
  for (const path of files) if (!read.has(path)) read.set(path, null);
  return { sysctls, files: read };
}

/** Live values of `keys` (null: the key is missing). */
export async function readSysctls(access: RemoteAccess, keys: readonly string[]): Promise<Record<string, string | null>> {
  if (keys.length === 0) return {};
  const result = await runAsLogin(access.transport, 'read-back', readHostBody([...new Set(keys)], [], false));
  const found = sections(result.stdout);
  if (!found.has('end')) throw new ApiError('unavailable', `cannot read the sysctls back${said(result) ? `: ${said(result)}` : ''}`);
  return Object.fromEntries(keys.map((key) => [key, decodeSysctl(found.get(`sysctl ${key}`)).value]));
}

/** Limits of a login (over a fresh SSH login, what pam_limits gave it). */
export async function readLoginLimits(transport: HostTransport): Promise<ProcLimits> {
  const result = await runAsLogin(transport, 'read-identity', READ_IDENTITY);
  const lines = sections(result.stdout).get('limits');
  if (!lines) throw new ApiError('unavailable', `cannot read the limits of a new login: ${said(result)}`);
  return parseProcLimits(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// Writing

/** New content per path with the mode, owner, group (and context) it gets; null: remove the file. */
export type FileWrites = Record<string, { base64: string; meta: FileMeta } | null>;

/**
 * Writes (or removes) files atomically: a temp file beside each, created private, given its owner,
 * group, mode and (with SELinux on) context, synced, then renamed over it — so the file never
 * exists with other metadata, whatever the umask or a setgid directory would have given it.
 */
export async function writeFiles(access: RemoteAccess, step: 'write-restore' | 'write-drop-ins' | 'remove-restore', writes: FileWrites): Promise<void> {
  const lines = Object.entries(writes).map(([path, content]) => {
    if (content === null) return `rm -f ${shellQuote(path)}`;
    const { mode, uid, gid, context } = content.meta;
    return `put ${[path, content.base64, mode, String(uid), String(gid), context ?? ''].map(shellQuote).join(' ')}`;
  });
  if (lines.length === 0) return;
  const body = `set -e
umask 022
${SELINUX_PROBE}put() {
  d=$(dirname "$1")
  t="$d/.$(basename "$1").benchlab-tmp"
  mkdir -p "$d"
  (umask 077; printf '%s' "$2" | base64 -d > "$t")
  # chown first: it clears set-id bits that chmod then sets.
  chown "$4:$5" "$t"
  chmod "$3" "$t"
  if [ -n "$6" ] && [ "$selinux" = 1 ]; then chcon "$6" "$t"; fi
  sync "$t" 2>/dev/null || true
  mv -f "$t" "$1"
}
${lines.join('\n')}
m done
`;
  const result = await runAsRoot(access, step, body);
  if (result.code !== 0 || !sections(result.stdout).has('done')) {
    throw new ApiError('unavailable', `cannot write ${Object.keys(writes).join(', ')} on the host: ${said(result) || `exit code ${result.code}`}`);
  }
}

/** Sets sysctls live with `sysctl -w` (or by writing /proc/sys where there is no sysctl command), key by key. */
export async function setSysctls(access: RemoteAccess, values: Record<string, string>): Promise<Record<string, LiveWrite>> {
  const keys = Object.keys(values);
  if (keys.length === 0) return {};
  const body = `s() {
  if command -v sysctl >/dev/null 2>&1; then out=$(sysctl -w "$1=$2" 2>&1 >/dev/null); rc=$?
  else out=$( (printf '%s\\n' "$2" > "$3") 2>&1 ); rc=$?; fi
  m "set $1"
  if [ "$rc" = 0 ]; then echo ok; else echo failed; printf '%s\\n' "$out"; fi
}
${keys.map((key) => `s ${shellQuote(key)} ${shellQuote(values[key]!)} ${shellQuote(sysctlPath(key))}`).join('\n')}
m end
`;
  const result = await runAsRoot(access, 'set-live', body);
  const found = sections(result.stdout);
  if (!found.has('end')) throw new ApiError('unavailable', `cannot set the sysctls on the host: ${said(result) || `exit code ${result.code}`}`);
  return Object.fromEntries(
    keys.map((key) => {
      const lines = found.get(`set ${key}`) ?? ['failed', 'no answer'];
      return [key, { ok: lines[0] === 'ok', error: lines[0] === 'ok' ? null : lines.slice(1).join(' ') || 'failed' }];
    }),
  );
}
