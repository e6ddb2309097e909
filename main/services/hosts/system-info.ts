// Probing a host: the one POSIX sh script that gathers its system info (read by
// parseSystemInfoOutput in app/), and the client→server TCP connect test with its RTT (read by
// parseReachabilityOutput). Both run over any HostTransport, so SSH hosts and "This machine" alike.

import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import {
  parseReachabilityOutput,
  parseSystemInfoOutput,
  SYSTEM_INFO_MARKER,
  TRACKED_SYSCTLS,
  type Reachability,
  type SystemInfo,
} from '../../../app/hosts/system-info.ts';
import type { HostTransport } from './host-transport.ts';

const COLLECT_TIMEOUT_MS = 30_000;

/** The bound on the first connect of the reachability test; later connects only run after it succeeded. */
const CONNECT_TIMEOUT_S = 3;
const SAMPLES = 5;
const REACHABILITY_TIMEOUT_MS = 10_000;

/**
 * The system info script. POSIX sh only (dash, busybox ash, bash as sh), every section behind a
 * marker line, every command allowed to be missing. It is fed on stdin to `sh -s`, so it runs the
 * same whatever the login shell is (fish and csh included); the whole body is one `{ … }` group so
 * sh has read all of it before a command runs, and the group's stdin is /dev/null so no command
 * can swallow the rest of the script.
 */
export function systemInfoScript(): string {
  const sysctls = TRACKED_SYSCTLS.map(
    (key) => `m ${shellQuote(`sysctl ${key}`)}\ncat ${shellQuote(`/proc/sys/${key.replace(/\./g, '/')}`)}`,
  ).join('\n');
  return `{
m() { printf '\\n%s %s\\n' ${shellQuote(SYSTEM_INFO_MARKER)} "$1"; }
# Non-root logins often lack the sbin directories, where apache2 and httpd live.
PATH="$PATH:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
LC_ALL=C
export PATH LC_ALL
m hostname
# Minimal RHEL and Fedora images have no hostname command.
hostname || uname -n
m os-release
cat /etc/os-release || cat /usr/lib/os-release
m release-file
for f in /etc/redhat-release /etc/alpine-release /etc/debian_version; do
  if [ -r "$f" ]; then head -n 1 "$f"; break; fi
done
m kernel
uname -r
m arch
uname -m
m cpuinfo
grep -E '^(model name|Model|Hardware|cpu model|cpu|Processor|processor)[[:space:]]*:' /proc/cpuinfo
m lscpu
# Only needed where /proc/cpuinfo names no model (most arm64 kernels).
grep -q '^model name' /proc/cpuinfo || lscpu | grep -E '^(Model name|Vendor ID):'
m nproc
nproc || getconf _NPROCESSORS_ONLN
m meminfo
grep '^MemTotal:' /proc/meminfo
# Limits of this login session (over SSH, PAM's pam_limits has just applied limits.conf).
m nofile-soft
ulimit -Sn
m nofile-hard
ulimit -Hn
m nproc-soft
ulimit -Su
m nproc-hard
ulimit -Hu
m proc-limits
grep -E '^Max (processes|open files)' /proc/self/limits
${sysctls}
m node
if command -v node >/dev/null; then node --version; elif command -v nodejs >/dev/null; then nodejs --version; fi
m java
# java -version writes to stderr.
if command -v java >/dev/null; then java -version 2>&1; fi
m apache
for a in apache2 httpd /usr/sbin/apache2 /usr/sbin/httpd /usr/local/apache2/bin/httpd; do
  p=$(command -v "$a") || continue
  # busybox and toybox have an httpd applet that takes -v as "verbose" and starts serving port 80.
  case $(readlink -f "$p" || echo "$p") in */busybox*|*/toybox*) continue ;; esac
  "$p" -v 2>&1
  break
done
m end
} </dev/null 2>/dev/null
`;
}

/** Runs the system info script on the host and reads it. */
export async function collectSystemInfo(transport: HostTransport, options: { signal?: AbortSignal } = {}): Promise<SystemInfo> {
  const result = await transport.exec('sh -s', {
    stdin: systemInfoScript(),
    timeoutMs: COLLECT_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    return parseSystemInfoOutput(result.stdout, new Date().toISOString());
  } catch (error) {
    // What the host said instead (a nologin shell, a missing sh) is the useful part of the message.
    const said = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-3).join(' ').slice(0, 300);
    throw new ApiError(
      'unavailable',
      `cannot read the host's system info: ${messageOf(error)}${result.code ? ` (exit code ${result.code})` : ''}${said ? `: ${said}` : ''}`,
    );
  }
}

/**
 * One connect in bash, through its /dev/tcp redirection: `true 3<>/dev/tcp/h/p` opens and closes a
 * TCP connection inside the shell, without starting a process, so timing it measures the handshake
 * (one round trip) rather than a fork. The first connect runs in a killable subshell, bounded by a
 * watchdog; the timed ones run only once that one got through. $EPOCHREALTIME (bash 5) reads the
 * clock without a process; older bash falls back to `date +%s%N`. Exit code 3: this bash was built
 * without /dev/tcp.
 */
const BASH_PROGRAM = `
h=$1 p=$2 t=$3 n=$4
now() {
  if [ -n "\${EPOCHREALTIME-}" ]; then r=\${EPOCHREALTIME/[!0-9]/}; else r=$(date +%s%N); r=\${r%???}; fi
  case $r in ''|*[!0-9]*) r= ;; esac
}
out=$(
  ( true 3<>"/dev/tcp/$h/$p" ) 2>&1 &
  c=$!
  ( sleep "$t"; kill -9 "$c" ) >/dev/null 2>&1 &
  w=$!
  wait "$c"
  rc=$?
  kill "$w" 2>/dev/null
  echo "rc=$rc"
)
rc=\${out##*rc=}
case $out in *"/dev/tcp/"*"No such file or directory"*) exit 3 ;; esac
echo "probe $rc"
printf '%s\\n' "\${out%rc=*}" | while IFS= read -r line; do [ -n "$line" ] && echo "error $line"; done
if [ "$rc" = 0 ]; then
  i=0
  while [ "$i" -lt "$n" ]; do
    now; a=$r
    if { true 3<>"/dev/tcp/$h/$p"; } 2>/dev/null; then ok=1; else ok=0; fi
    now; b=$r
    now; c=$r
    if [ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ]; then echo "sample $ok $((b - a)) $((c - b))"; fi
    i=$((i + 1))
  done
fi
`;

/** The same with nc -z where bash is missing (busybox systems); nc's start-up is in every sample. */
const NC_PROGRAM = `
now() { r=$(date +%s%N); r=\${r%???}; case $r in ''|*[!0-9]*) r= ;; esac; }
out=$(nc -z -v -w "$T" "$H" "$P" 2>&1)
rc=$?
echo "probe $rc"
if [ "$rc" != 0 ]; then printf '%s\\n' "$out" | while IFS= read -r line; do [ -n "$line" ] && echo "error $line"; done; fi
if [ "$rc" = 0 ]; then
  i=0
  while [ "$i" -lt "$N" ]; do
    now; a=$r
    if nc -z -w "$T" "$H" "$P" >/dev/null 2>&1; then ok=1; else ok=0; fi
    now; b=$r
    now; c=$r
    if [ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ]; then echo "sample $ok $((b - a)) $((c - b))"; fi
    i=$((i + 1))
  done
fi
`;

/** The reachability script for `sh -s`: bash's /dev/tcp where bash is, else nc -z, else "none". */
export function reachabilityScript(address: string, port: number): string {
  return `{
H=${shellQuote(address)} P=${port} T=${CONNECT_TIMEOUT_S} N=${SAMPLES}
LC_ALL=C
export LC_ALL
tested=0
if command -v bash >/dev/null; then
  out=$(bash -c ${shellQuote(BASH_PROGRAM)} bash "$H" "$P" "$T" "$N")
  if [ $? != 3 ]; then echo "method bash"; printf '%s\\n' "$out"; tested=1; fi
fi
# Only an nc with -z can connect without sending anything (Debian's busybox nc has no -z).
if [ "$tested" = 0 ] && command -v nc >/dev/null && nc -h 2>&1 | grep -q -e '-z'; then
  echo "method nc"
  ${NC_PROGRAM.trim().split('\n').join('\n  ')}
  tested=1
fi
if [ "$tested" = 0 ]; then echo "method none"; fi
echo end
} </dev/null 2>/dev/null
`;
}

/**
 * From the client host, times a few TCP connects to the server's SSH port: the client→server path
 * a benchmark will use, which may differ from Benchlab's own paths to either host.
 */
export async function measureReachability(
  client: HostTransport,
  server: { address: string; port: number },
  ids: { from: number; to: number },
): Promise<Reachability> {
  if (!Number.isInteger(server.port) || server.port < 1 || server.port > 65535) {
    throw new ApiError('invalid_args', `port: must be between 1 and 65535 (got ${server.port})`);
  }
  // bash's /dev/tcp and nc take IPv6 addresses without the brackets a host entry may carry.
  const address = /^\[.*\]$/.test(server.address) ? server.address.slice(1, -1) : server.address;
  if (address === '' || /[\s/]/.test(address)) throw new ApiError('invalid_args', `address: "${server.address}" cannot be tested`);
  const target = { address, port: server.port, timeoutSeconds: CONNECT_TIMEOUT_S };
  try {
    const result = await client.exec('sh -s', { stdin: reachabilityScript(address, server.port), timeoutMs: REACHABILITY_TIMEOUT_MS });
    return parseReachabilityOutput(result.stdout, ids, target);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'timeout') {
      return {
        ...ids,
        reachable: false,
        rttMs: null,
        message: `the connect test to ${address}:${server.port} did not finish within ${REACHABILITY_TIMEOUT_MS / 1000} s (the link may have dropped during the test)`,
      };
    }
    throw error;
  }
}
