// The remote side of a preset's network settings, as POSIX sh over any HostTransport: find tc and
// the interface (named, or the one routing to where Benchlab's login comes from), read its qdiscs
// and what the kernel can shape with, replace the root qdisc with Benchlab's, and remove it again.
// Reading needs no root; changing goes through runAsRoot like the sysctls. Every value reaching a
// command line was validated by app/presets/network-shaping.ts and is shell-quoted here anyway.

import type { HostNetworkState } from '../../../app/presets/network-plan.ts';
import { AUTO_INTERFACE, BENCHLAB_QDISC_HANDLE, interfaceProblem, qdiscArguments, type NetworkShaping } from '../../../app/presets/network-shaping.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import { ApiError } from '../../../app/common/errors.ts';
import { runAsLogin, runAsRoot, said, sections, type RemoteAccess } from './host-preset-io.ts';

/** tc lives in sbin, which a login without root often lacks in its PATH. */
const PATH_WITH_SBIN = 'PATH="$PATH:/usr/sbin:/sbin"\nexport PATH\n';

const READ_NETWORK = `${PATH_WITH_SBIN}m tc
if command -v tc >/dev/null 2>&1; then echo yes; else echo no; fi
m iface
dev=
if [ "$want" = ${AUTO_INTERFACE} ]; then
  if [ -n "$SSH_CONNECTION" ]; then
    peer=\${SSH_CONNECTION%% *}
    route=$(ip route get "$peer" 2>&1 | head -n 1)
    echo "peer $peer"
    echo "route $route"
    dev=$(printf '%s\\n' "$route" | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p')
  else
    echo nopeer
  fi
elif [ -e "/sys/class/net/$want" ]; then
  echo "named $want"
  dev=$want
else
  echo "absent $want"
fi
if [ -n "$dev" ] && [ -e "/sys/class/net/$dev" ]; then
  m qdiscs
  tc qdisc show dev "$dev" 2>&1
fi
m kernel
if [ -r /proc/config.gz ] && command -v zcat >/dev/null 2>&1; then
  echo config
  zcat /proc/config.gz 2>/dev/null | grep -E '^(# )?CONFIG_NET_SCH_(NETEM|TBF)[ =]'
elif [ -r "/boot/config-$(uname -r)" ]; then
  echo config
  grep -E '^(# )?CONFIG_NET_SCH_(NETEM|TBF)[ =]' "/boot/config-$(uname -r)"
fi
for mod in sch_netem sch_tbf; do [ -d "/sys/module/$mod" ] && echo "loaded $mod"; done
m end
`;

/** What the kernel's configuration (or its loaded modules) says of a qdisc. */
function supportOf(lines: readonly string[], name: 'NETEM' | 'TBF'): boolean | null {
  if (lines.includes(`loaded sch_${name.toLowerCase()}`)) return true;
  if (!lines.includes('config')) return null;
  return lines.some((line) => line === `CONFIG_NET_SCH_${name}=y` || line === `CONFIG_NET_SCH_${name}=m`);
}

/** Reads tc, the interface and its qdiscs; `wanted` is the preset's (or the restore record's) interface. */
export async function readNetwork(access: RemoteAccess, wanted: string): Promise<HostNetworkState> {
  const problem = interfaceProblem(wanted);
  if (problem) throw new ApiError('invalid_args', `network.interface ${problem}`);
  const result = await runAsLogin(access.transport, 'read-network', `want=${shellQuote(wanted)}\n${READ_NETWORK}`);
  const found = sections(result.stdout);
  if (!found.has('end')) throw new ApiError('unavailable', `cannot read the host's network settings${said(result) ? `: ${said(result)}` : ''}`);
  const iface = found.get('iface') ?? [];
  const kernel = found.get('kernel') ?? [];
  const state: HostNetworkState = {
    tc: (found.get('tc') ?? [])[0] === 'yes',
    interface: null,
    how: '',
    problem: null,
    qdiscs: (found.get('qdiscs') ?? []).join('\n'),
    support: { tbf: supportOf(kernel, 'TBF'), netem: supportOf(kernel, 'NETEM') },
  };
  const line = (prefix: string) => iface.find((entry) => entry.startsWith(prefix))?.slice(prefix.length) ?? null;
  if (wanted !== AUTO_INTERFACE) {
    if (line('named ') !== null) return { ...state, interface: wanted, how: 'named in the preset' };
    return { ...state, problem: `there is no interface "${wanted}"` };
  }
  if (iface.includes('nopeer')) {
    return { ...state, problem: `"${AUTO_INTERFACE}" needs an SSH login to tell where Benchlab is; name the interface (network.interface) for this host` };
  }
  const peer = line('peer ') ?? '?';
  const route = line('route ') ?? '';
  const dev = /\bdev (\S+)/.exec(route)?.[1] ?? null;
  if (!dev || interfaceProblem(dev) !== null) return { ...state, problem: `cannot tell which interface routes to ${peer} (ip route get said "${route || 'nothing'}"); name the interface (network.interface)` };
  if (dev === 'lo') return { ...state, problem: `${peer}, where Benchlab's login comes from, is reached over lo; name the interface to shape (network.interface)` };
  return { ...state, interface: dev, how: `routes to ${peer}, where Benchlab's login comes from` };
}

/** `tc qdisc show dev IF` now. */
export async function readQdiscs(access: RemoteAccess, iface: string): Promise<string> {
  const result = await runAsLogin(access.transport, 'read-network', `${PATH_WITH_SBIN}m qdiscs\ntc qdisc show dev ${shellQuote(iface)} 2>&1\nm end\n`);
  const found = sections(result.stdout);
  if (!found.has('end')) throw new ApiError('unavailable', `cannot read the qdiscs of ${iface}${said(result) ? `: ${said(result)}` : ''}`);
  return (found.get('qdiscs') ?? []).join('\n');
}

/** Replaces the interface's root qdisc with Benchlab's; returns tc's complaint, or null when it took the command. */
export async function shapeNetwork(access: RemoteAccess, iface: string, network: NetworkShaping): Promise<string | null> {
  const argv = ['tc', 'qdisc', 'replace', 'dev', iface, 'root', 'handle', BENCHLAB_QDISC_HANDLE, ...qdiscArguments(network)];
  const body = `${PATH_WITH_SBIN}out=$(${argv.map(shellQuote).join(' ')} 2>&1); rc=$?
m shape
if [ "$rc" = 0 ]; then echo ok; else echo failed; printf '%s\\n' "$out"; fi
m end
`;
  const result = await runAsRoot(access, 'shape-network', body);
  const found = sections(result.stdout);
  if (!found.has('end')) throw new ApiError('unavailable', `cannot run tc on the host: ${said(result) || `exit code ${result.code}`}`);
  const lines = found.get('shape') ?? ['failed'];
  return lines[0] === 'ok' ? null : lines.slice(1).join(' ').trim() || 'tc failed';
}

/** Removes Benchlab's root qdisc (only Benchlab's: its handle), which gives the kernel's default back. */
export async function unshapeNetwork(access: RemoteAccess, iface: string): Promise<void> {
  const dev = shellQuote(iface);
  const body = `${PATH_WITH_SBIN}if tc qdisc show dev ${dev} | grep -q ${shellQuote(` ${BENCHLAB_QDISC_HANDLE} root`)}; then
  out=$(tc qdisc del dev ${dev} root 2>&1) || { m failed; printf '%s\\n' "$out"; }
fi
m end
`;
  const result = await runAsRoot(access, 'unshape-network', body);
  const found = sections(result.stdout);
  if (!found.has('end') || found.has('failed')) {
    throw new ApiError('unavailable', `cannot remove Benchlab's qdisc from ${iface}: ${(found.get('failed') ?? []).join(' ') || said(result) || `exit code ${result.code}`}`);
  }
}
