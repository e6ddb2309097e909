// Reads what a host is right now beyond its system info, for a session's snapshot and the noise
// pre-flight: the facts script (machine and boot ids, CPU governor and turbo, load average,
// every process's CPU and the swap counters sampled one second apart, and the limits of the
// process listening on the target port). POSIX sh, fed on stdin like the system info script.

import { FACTS_MARKER, parseFactsOutput, type HostReadings } from '../../../app/hosts/host-facts.ts';
import type { HostTransport } from './host-transport.ts';

const FACTS_TIMEOUT_MS = 20_000;

/** The facts script; `port` names the listening socket whose process's limits are read. */
export function factsScript(port: number | null): string {
  const listener =
    port === null
      ? ''
      : `# The process listening on the target port (ss names it; root sees every user's).
pid=$(ss -Htlnp "sport = :${port}" | sed -n 's/.*pid=\\([0-9][0-9]*\\).*/\\1/p' | head -n 1)
if [ -n "$pid" ]; then
  m listener-pid; echo "$pid"
  m listener-comm; cat "/proc/$pid/comm"
  m listener-limits; grep -E '^Max (processes|open files)' "/proc/$pid/limits"
fi`;
  return `{
m() { printf '\\n%s %s\\n' '${FACTS_MARKER}' "$1"; }
PATH="$PATH:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
LC_ALL=C
export PATH LC_ALL
m self; echo $$
m machine-id; cat /etc/machine-id || cat /var/lib/dbus/machine-id
m boot-id; cat /proc/sys/kernel/random/boot_id
m governor; cat /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor
m boost
for f in intel_pstate/no_turbo cpufreq/boost; do
  if [ -r "/sys/devices/system/cpu/$f" ]; then echo "$f $(cat "/sys/devices/system/cpu/$f")"; fi
done
m loadavg; cat /proc/loadavg
m clk-tck; getconf CLK_TCK
${listener}
s() {
  m "$1 uptime"; cat /proc/uptime
  m "$1 vmstat"; grep -E '^pswp(in|out) ' /proc/vmstat
  m "$1 stat"; cat /proc/[0-9]*/stat
}
s sample-0
sleep 1
s sample-1
m end
} </dev/null 2>/dev/null
`;
}

/** Runs the facts script and reads it (a truncated run throws: better no facts than wrong ones). */
export async function collectReadings(transport: HostTransport, port: number | null, options: { signal?: AbortSignal } = {}): Promise<HostReadings> {
  const result = await transport.exec('sh -s', { stdin: factsScript(port), timeoutMs: FACTS_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) });
  return parseFactsOutput(result.stdout);
}

