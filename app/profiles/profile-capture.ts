// The capture's pure side: what the server host said of its server process (discovery), the tool
// that profiles it or the one line saying what to install, and the tools' outputs turned into
// folded stacks (counted stacks folded on the host; V8's CPU profile folded here).

import { cleanFrame, foldedText, type FoldedStack, type ProfileRuntime, type ProfileTool } from './profiles.ts';

/** What the host's discovery command printed, read. */
export interface ServerDiscovery {
  /** The processes listening on the target's port (a pre-forking server has several). */
  pids: number[];
  /** The first one's executable. */
  exe: string | null;
  /** Its release when it is a Node ("v24.11.0"); null otherwise or when it did not say. */
  nodeVersion: string | null;
  /** Tool paths found on the host; null when absent (perf: null too when it does not run). */
  jcmd: string | null;
  jfr: string | null;
  perf: string | null;
  /** kernel.perf_event_paranoid, and whether the login is root (perf's permission). */
  paranoid: number | null;
  root: boolean;
}

export function parseDiscovery(stdout: string): ServerDiscovery {
  const fields = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) fields.set(line.slice(0, space), line.slice(space + 1).trim());
    else if (line.trim() !== '') fields.set(line.trim(), '');
  }
  const text = (key: string): string | null => (fields.get(key) ? fields.get(key)! : null);
  const pids = (fields.get('pids') ?? '').split(/\s+/).map(Number).filter((pid) => Number.isInteger(pid) && pid > 0);
  const paranoid = Number.parseInt(fields.get('paranoid') ?? '', 10);
  return {
    pids: [...new Set(pids)],
    exe: text('exe'),
    nodeVersion: text('nodeversion'),
    jcmd: text('jcmd'),
    jfr: text('jfr'),
    perf: text('perf'),
    paranoid: Number.isNaN(paranoid) ? null : paranoid,
    root: fields.get('uid') === '0',
  };
}

export function runtimeOf(exe: string | null): ProfileRuntime {
  const name = (exe ?? '').split('/').pop() ?? '';
  if (/^java/.test(name)) return 'jvm';
  if (/^node/.test(name)) return 'node';
  return 'native';
}

/** The oldest Node whose inspector the V8 capture opens (SIGUSR1 opened the old debugger before). */
const INSPECTOR_NODE_MAJOR = 8;

export type ProfilerChoice = { tool: ProfileTool; runtime: ProfileRuntime } | { missing: string; tool: ProfileTool | null; runtime: ProfileRuntime | null };

/** The tool for the server's runtime, or the one line saying why there is none (and what to install). */
export function chooseProfiler(found: ServerDiscovery, host: string, port: number): ProfilerChoice {
  if (found.pids.length === 0) return { missing: `no process of this login listens on port ${port} of ${host}: nothing to profile`, tool: null, runtime: null };
  const runtime = runtimeOf(found.exe);
  const name = (found.exe ?? 'the server').split('/').pop();
  const nodeMajor = Number(/^v?(\d+)\./.exec(found.nodeVersion ?? '')?.[1] ?? INSPECTOR_NODE_MAJOR);
  if (runtime === 'node' && nodeMajor >= INSPECTOR_NODE_MAJOR) return { tool: 'v8', runtime };
  // An older Node has no inspector to ask: perf samples it as a native process, its JavaScript as anonymous frames.
  const runtimeNote = runtime === 'node' ? ` (Node ${found.nodeVersion} has no inspector for a V8 profile: it came with Node ${INSPECTOR_NODE_MAJOR})` : '';
  if (runtime === 'jvm') {
    if (found.jcmd && found.jfr) return { tool: 'jfr', runtime };
    return { missing: `the JDK's jcmd and jfr are not on ${host} (a JRE only?): install a full JDK (e.g. openjdk-17-jdk-headless) to profile the JVM`, tool: 'jfr', runtime };
  }
  if (!found.perf) {
    return { missing: `perf is not installed on ${host}: install it (Debian: apt-get install linux-perf; Ubuntu: linux-tools-$(uname -r); Fedora/RHEL: dnf install perf) to profile ${name}${runtimeNote}`, tool: 'perf', runtime };
  }
  if (!found.root && (found.paranoid ?? 2) > 1) {
    return { missing: `perf may not profile another process on ${host} (kernel.perf_event_paranoid is ${found.paranoid ?? 'unknown'}): set it to 1 (sysctl -w kernel.perf_event_paranoid=1) or log in as root`, tool: 'perf', runtime };
  }
  return { tool: 'perf', runtime };
}

/** `uniq -c` output ("  12 frame;frame;leaf") as folded stacks. */
export function foldCounted(lines: string[]): FoldedStack[] {
  const stacks: FoldedStack[] = [];
  for (const line of lines) {
    const match = /^\s*(\d+) (.+)$/.exec(line);
    if (!match) continue;
    const frames = match[2]!.split(';').filter((frame) => frame !== '');
    if (frames.length > 0) stacks.push({ frames, count: Number(match[1]) });
  }
  return stacks;
}

interface V8Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** V8's CPU profile (the inspector's Profiler.stop result): each sample's stack, root first, as folded stacks. */
export function foldV8Profile(profile: { nodes: V8Node[]; samples?: number[] }): FoldedStack[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const counts = new Map<number, number>();
  for (const sample of profile.samples ?? []) counts.set(sample, (counts.get(sample) ?? 0) + 1);
  const stacks: FoldedStack[] = [];
  for (const [id, count] of counts) {
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      frames.push(v8FrameName(node.callFrame));
    }
    // The last is V8's "(root)": every stack has it.
    if (frames.at(-1) === '(root)') frames.pop();
    if (frames.length > 0) stacks.push({ frames: frames.reverse(), count });
  }
  return stacks;
}

function v8FrameName(frame: V8Node['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return cleanFrame(name);
  const file = frame.url.split('/').pop() ?? frame.url;
  return cleanFrame(`${name} ${file}:${frame.lineNumber + 1}`);
}

/** What the capture command printed at its end: the folded text, or why there is none. */
export function foldCaptureOutput(stdout: string): { folded: string } | { failed: string } {
  const lines = stdout.split('\n');
  const failed = lines.find((line) => line.startsWith('@failed'));
  if (failed) return { failed: failed.slice('@failed'.length).trim() || 'the profiler failed' };
  const counted = lines.indexOf('@counted');
  if (counted >= 0) return { folded: foldedText(foldCounted(lines.slice(counted + 1))) };
  const v8 = lines.findIndex((line) => line.startsWith('@v8 '));
  if (v8 >= 0) {
    try {
      return { folded: foldedText(foldV8Profile(JSON.parse(lines[v8]!.slice(4)) as Parameters<typeof foldV8Profile>[0])) };
    } catch {
      return { failed: 'the V8 profile did not arrive whole' };
    }
  }
  return { failed: 'the profiler ended without a profile (did the server stop?)' };
}
