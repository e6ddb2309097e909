// What a server's runtime is started with so the server sampler can read its own figures each second,
// without changing the server's code, and how the sampler finds them again from the process's command
// line (so a server started by hand with the same flags is read too):
// - a JVM: its unified GC log, `-Xlog:gc:file=<run dir>/gc.log` (one line per collection, two files
//   of 8 MB at most);
// - Node: Benchlab's event-loop monitor preloaded, `--require <run dir>/benchlab-event-loop.cjs`
//   (event-loop-monitor.ts).

import { EVENT_LOOP_FOLDER, EVENT_LOOP_MONITOR_FILE, EVENT_LOOP_MONITOR_SOURCE } from './event-loop-monitor.ts';

export const GC_LOG_FILE = 'gc.log';

/** The runtimes a start command names by its first argument's placeholder. */
export type MonitoredRuntime = 'java' | 'node';

/** The flags that go right after the runtime's executable in a server's start command. */
export function runtimeMonitorFlags(runtime: MonitoredRuntime, runDir: string): string[] {
  if (runtime === 'java') return [`-Xlog:gc:file=${runDir}/${GC_LOG_FILE}:uptime,level,tags:filecount=2,filesize=8M`];
  return ['--require', `${runDir}/${EVENT_LOOP_MONITOR_FILE}`];
}

/** A file the start writes into the run dir before the server starts. */
export interface RunDirFile {
  name: string;
  text: string;
}

/** The oldest Node the event-loop monitor runs on: it preloads with `--require` and reads perf_hooks' monitorEventLoopDelay (Node 11.10). */
const MONITORED_NODE_MAJOR = 12;

/**
 * A template's start command with its runtime's monitor flags right after the executable, and the
 * files they need in the run dir: by the start's first argument, `{java}` or `{node}`, and
 * `version`, that runtime's. Any other runtime's command is unchanged; so is a Java older than 9 or
 * of unknown version (unified logging, `-Xlog`, came with Java 9; Java 8 refuses to start with it),
 * and a Node older than 12 (a template on the Node of 2012 would not start with the monitor).
 */
export function withRuntimeMonitors(executable: string | undefined, argv: readonly string[], runDir: string, version: string | null = null): { argv: string[]; files: RunDirFile[] } {
  const major = /^(\d+)/.exec(version ?? '')?.[1];
  const javaMonitored = major !== undefined && Number(major) >= 9;
  const nodeMonitored = major === undefined || Number(major) >= MONITORED_NODE_MAJOR;
  const runtime: MonitoredRuntime | null = executable === '{java}' && javaMonitored ? 'java' : executable === '{node}' && nodeMonitored ? 'node' : null;
  if (runtime === null || argv.length === 0) return { argv: [...argv], files: [] };
  return {
    argv: [argv[0]!, ...runtimeMonitorFlags(runtime, runDir), ...argv.slice(1)],
    files: runtime === 'node' ? [{ name: EVENT_LOOP_MONITOR_FILE, text: EVENT_LOOP_MONITOR_SOURCE }] : [],
  };
}

/** Where a process's runtime writes its figures, from its argv (/proc/<pid>/cmdline): null for each it does not write. */
export function runtimeLogsOf(argv: readonly string[]): { gcLog: string | null; eventLoopFolder: string | null } {
  let gcLog: string | null = null;
  let eventLoopFolder: string | null = null;
  for (const [index, arg] of argv.entries()) {
    // -Xlog:gc[*|,tags][=level]:file=PATH[:decorators[:options]]; the last such flag wins, as in the JVM.
    const gc = /^-Xlog:gc[^:]*:file=("?)([^":]+)\1(?::|$)/.exec(arg);
    if (gc) gcLog = gc[2]!;
    const required = arg === '--require' || arg === '-r' ? argv[index + 1] : arg.startsWith('--require=') ? arg.slice('--require='.length) : undefined;
    if (required !== undefined && (required === EVENT_LOOP_MONITOR_FILE || required.endsWith(`/${EVENT_LOOP_MONITOR_FILE}`))) {
      eventLoopFolder = `${required.slice(0, required.length - EVENT_LOOP_MONITOR_FILE.length)}${EVENT_LOOP_FOLDER}`;
    }
  }
  return { gcLog, eventLoopFolder };
}
