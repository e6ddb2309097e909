// The agent's footing on a host: Benchlab's folder there (the template deployer's layout), a Node
// >= 18 to run it (the host's own, or the deployer's portable Node uploaded when there is none),
// the bundle uploaded only when its content changed, and the folder of pid files that lets a later
// Benchlab kill an agent an earlier one left running. Facts are probed once per host and session.
// On a client host, the native engine's binary beside the agent when the run may use it, and the
// older ones earlier builds left there removed unless a running process uses them.

import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import { benchlabRoot, describeMissing, judgeRequirements } from '../../../app/templates/template-hosts.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { syncFiles } from '../templates/file-sync.ts';
import { ensurePortableNode, PORTABLE_NODE_MAJOR, type PortableNodeCache } from '../templates/portable-node.ts';
import { probeHost } from '../templates/remote-server.ts';
import { nativeEngineArch, nativeEngineObstacle } from '../../../app/runs/engine-choice.ts';
import { AGENT_FILE_NAME, agentBundle } from './agent-bundle.ts';
import { chooseEngineRemovals, parseEngineFolderListing, type EngineRemovals } from '../../../app/runs/engine-leftovers.ts';
import { plural } from '../../../app/common/plural.ts';
import { formatBytes } from '../../../app/common/byte-size.ts';
import { engineBinary } from './engine-binary.ts';

export const AGENT_MIN_NODE = 18;

export interface AgentHost {
  /** The command prefix that runs the agent: `setsid -w '/usr/bin/node' '/var/lib/benchlab/agent/benchlab-agent.mjs'`. */
  command: string;
  /** Where agents' pid files live on this host. */
  pidDir: string;
  hostname: string;
  /** The agent's folder on the host: the native engine's binary goes beside it. */
  agentDir: string;
  /** `uname -m`: which native engine binary fits the host. */
  machine: string;
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_') || 'host';
}

/** Makes the host ready to run the agent; uploads what is missing. */
export async function prepareAgentHost(
  transport: HostTransport,
  hostName: string,
  options: { portableNode: PortableNodeCache; signal?: AbortSignal; onStep?: (text: string) => void },
): Promise<AgentHost> {
  const signal = options.signal ? { signal: options.signal } : {};
  const facts = await probeHost(transport, undefined, options.signal);
  const root = benchlabRoot(facts);
  const verdict = judgeRequirements([{ runtime: 'node', minVersion: AGENT_MIN_NODE }], facts, PORTABLE_NODE_MAJOR);
  if (verdict.missing.length > 0) throw new ApiError('unavailable', describeMissing(hostName, verdict.missing));
  let node = verdict.placeholders.node;
  if (!node) {
    options.onStep?.(`${hostName}: no Node >= ${AGENT_MIN_NODE}; providing the portable Node v${PORTABLE_NODE_MAJOR}`);
    const archive = await options.portableNode.archive(verdict.provisionNode!.arch, verdict.provisionNode!.release, options.signal);
    node = (await ensurePortableNode(transport, root, archive, signal)).node;
  }
  const bundle = await agentBundle();
  const synced = await syncFiles(transport, `${root}/agent`, [{ name: AGENT_FILE_NAME, source: bundle.bytes }], signal);
  if (synced.uploaded.length > 0) options.onStep?.(`${hostName}: uploaded the load agent (${Math.round(bundle.bytes.length / 1024)} KB)`);
  // setsid: the agent leads its own process group, so it can be stopped as one (with its threads'
  // sockets) and is not tied to the login session's job control. -w keeps our channel attached.
  const setsid = facts.tools.has('setsid') ? 'setsid -w ' : '';
  // The soft open-files limit up to the hard one, as one would before a load run by hand: every
  // connection is a file, and a login's soft limit (often 1024) is not what the host allows.
  const raiseFiles = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; ';
  return {
    command: `${raiseFiles}${setsid}${shellQuote(node)} ${shellQuote(`${root}/agent/${AGENT_FILE_NAME}`)}`,
    // Not under ${root}/run: the template deployer owns that folder and clears it.
    pidDir: `${root}/agent/pids/${safeName(facts.hostname)}`,
    hostname: facts.hostname,
    agentDir: `${root}/agent`,
    machine: facts.arch,
  };
}

/**
 * The native engine on the host, for a run against a `protocol` target: its binary beside the
 * agent as `benchlab-engine-<hash12>`, uploaded (executable) only when that name is missing there;
 * the older binaries beside it go first, except those a running process uses (engine-leftovers.ts).
 * Returns its path, or why the native engine cannot run there (in words for decideEngine).
 */
export async function prepareNativeEngine(
  transport: HostTransport,
  host: AgentHost,
  hostName: string,
  protocol: 'http' | 'https',
  options: { onStep?: (text: string) => void } = {},
): Promise<{ path: string } | { obstacle: string }> {
  const os = (await transport.exec('uname -s', { timeoutMs: 30_000 })).stdout.trim();
  const obstacle = nativeEngineObstacle({ os, machine: host.machine }, protocol);
  if (obstacle) return { obstacle };
  const found = await engineBinary(nativeEngineArch(host.machine)!);
  if (!found.ok) return { obstacle: found.reason };
  const { binary } = found;
  const path = `${host.agentDir}/${binary.remoteName}`;
  const listing = parseEngineFolderListing((await transport.exec('sh -s', { stdin: engineFolderScript(host.agentDir, binary.remoteName), timeoutMs: 30_000 })).stdout);
  await removeOlderEngines(transport, host.agentDir, hostName, chooseEngineRemovals(listing, binary.remoteName), options.onStep);
  if (listing.present) return { path };
  try {
    await transport.upload(binary.bytes, path, { mode: 0o755 });
  } catch (error) {
    return { obstacle: `its binary could not be uploaded (${messageOf(error)})` };
  }
  options.onStep?.(`${hostName}: uploaded the native engine for linux/${binary.arch} (${Math.round(binary.bytes.length / 1024)} KB)`);
  return { path };
}

/**
 * Lists the agent folder for chooseEngineRemovals: whether `current` is there, the other engine
 * files with their sizes and, only when there are any, every process's executable and argument that
 * names an engine file (one `ls` and one `cat` over /proc, not a command per process).
 */
function engineFolderScript(agentDir: string, current: string): string {
  return `cd ${shellQuote(agentDir)} 2>/dev/null || exit 0
current=${shellQuote(current)}
[ -x "$current" ] && echo present
others=
for f in benchlab-engine-*; do
  [ -f "$f" ] && [ "$f" != "$current" ] || continue
  echo "file $(wc -c < "$f") $f"
  others=1
done
[ -n "$others" ] || exit 0
{ ls -l /proc/[0-9]*/exe 2>/dev/null | sed -n 's/.* -> //p'; cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' '\\n'; } | grep benchlab-engine- | sed 's/^/used /'
true`;
}

/**
 * Removes the chosen older binaries and says on the log what went, what it freed and which stay in
 * use; nothing when there was nothing to remove (a binary in use is not news on every run).
 */
async function removeOlderEngines(transport: HostTransport, agentDir: string, hostName: string, removals: EngineRemovals, onStep?: (text: string) => void): Promise<void> {
  if (removals.remove.length === 0) return;
  const names = removals.remove.map((file) => shellQuote(file.name)).join(' ');
  const result = await transport.exec(`cd ${shellQuote(agentDir)} && for f in ${names}; do rm -f -- "$f" && echo "removed $f"; done; true`, { timeoutMs: 30_000 });
  const removed = new Set([...result.stdout.matchAll(/^removed (\S+)$/gm)].map((match) => match[1]!));
  const gone = removals.remove.filter((file) => removed.has(file.name));
  if (gone.length === 0) return;
  const freed = formatBytes(gone.reduce((sum, file) => sum + file.bytes, 0));
  const kept = removals.keptInUse.length > 0 ? `; kept ${removals.keptInUse.join(', ')}, which a running process uses` : '';
  onStep?.(`${hostName}: removed ${plural(gone.length, 'older native engine binary', 'older native engine binaries')} (${gone.map((file) => file.name).join(', ')}), freeing ${freed}${kept}`);
}

/**
 * The one naming rule of an agent's pid file on its host, `<owner>-s<session id>-<role>.pid`, which
 * cleanLeftoverAgents reads back: the sampler, the first client's load agent (`load`), and the
 * others' numbered from 2 (`load2`, `load3`, …), each client being its own host or not.
 */
export function agentPidFileName(owner: string, sessionId: number, role: 'load' | 'sampler', clientIndex = 0): string {
  const suffix = role === 'load' && clientIndex > 0 ? String(clientIndex + 1) : '';
  return `${owner}-s${sessionId}-${role}${suffix}.pid`;
}

/** The pid-file folder of a host, found by the host itself (no probe, no upload): as prepareAgentHost lays it out. */
const PID_DIR_SCRIPT = `if [ "$(id -u)" = 0 ]; then root=/var/lib/benchlab; else root="$HOME/.benchlab"; fi
dir="$root/agent/pids/$(uname -n | tr -c 'A-Za-z0-9._\n-' '_')"`;

/**
 * Kills agents an earlier Benchlab of this data dir (`owner`) left running on the host — their
 * pid files are named `<owner>-s<session id>-<role>.pid` — except those of the sessions in
 * `keepSessions` (running under a live Benchlab process). One short command, cheap enough to run
 * on every connect. Returns the pids it killed.
 */
export async function cleanLeftoverAgents(transport: HostTransport, owner: string, keepSessions: readonly number[] = []): Promise<number[]> {
  const script = `${PID_DIR_SCRIPT}
keep=${shellQuote(` ${keepSessions.join(' ')} `)}
for f in "$dir"/${owner}-*.pid; do
  [ -f "$f" ] || continue
  session=\${f##*/${owner}-s}
  session=\${session%%-*}
  case $session in ''|*[!0-9]*) ;; *) case "$keep" in *" $session "*) continue ;; esac ;; esac
  pid=$(cat "$f" 2>/dev/null)
  case $pid in ''|*[!0-9]*) rm -f "$f"; continue ;; esac
  if tr '\\0' ' ' < /proc/$pid/cmdline 2>/dev/null | grep -q ${AGENT_FILE_NAME}; then
    kill -KILL -- -"$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
    echo "killed $pid"
  fi
  rm -f "$f"
done
true`;
  const result = await transport.exec('sh -s', { stdin: script, timeoutMs: 30_000 });
  return [...result.stdout.matchAll(/^killed (\d+)$/gm)].map((match) => Number(match[1]));
}
