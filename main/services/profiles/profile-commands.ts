// The commands the capture runs on the server host: discovery (the processes on the port, their
// executable, the tools present), and one long-running capture command per tool. A capture command
// prints "@started" once the profiler runs, waits for its stdin to close (Benchlab's end of the
// step, or Benchlab's link gone), stops the profiler and prints the stacks: "@counted" then
// `uniq -c` lines folded on the host (JFR, perf: their text is large), or "@v8 <json>". Any
// failure is one "@failed <why>" line.

import { shellQuote } from '../../../app/common/shell-quote.ts';
import { V8_INSPECTOR_SCRIPT } from './v8-inspector-script.ts';

/** perf's sampling frequency, in Hz (V8 is sampled every 10 ms, alike). */
export const PERF_HZ = 99;

/** Discovery: one "key value" line each (app/profiles/profile-capture.ts parseDiscovery reads them). */
export function discoveryCommand(port: number, perfCommand: string): string {
  return [
    `pids=$(ss -ltnpH "sport = :${port}" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -un | tr '\\n' ' ')`,
    'echo "pids $pids"',
    'first=${pids%% *}',
    'exe=""; [ -n "$first" ] && exe=$(readlink "/proc/$first/exe" 2>/dev/null)',
    'echo "exe $exe"',
    // A Node server's own release: the inspector the V8 capture opens came with Node 8.
    'case "${exe##*/}" in node*) echo "nodeversion $("$exe" --version 2>/dev/null | head -1)";; esac',
    'bin=$(dirname "$exe" 2>/dev/null)',
    'for tool in jcmd jfr; do if [ -x "$bin/$tool" ]; then echo "$tool $bin/$tool"; else echo "$tool $(command -v $tool 2>/dev/null)"; fi; done',
    // Debian's perf is a wrapper that fails for a kernel without its linux-perf: it must run.
    `perf=$(command -v ${shellQuote(perfCommand)} 2>/dev/null); if [ -n "$perf" ] && "$perf" --version >/dev/null 2>&1; then echo "perf $perf"; else echo "perf"; fi`,
    'echo "paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)"',
    'echo "uid $(id -u)"',
  ].join('\n');
}

/** Folds JFR's printed execution samples (leaf first, "line: N" after each frame) into root-first stacks. */
const JFR_FOLD = `awk '/stackTrace = \\[/ { n = 0; s = 1; next }
s && /^[ \\t]*\\]/ { if (n > 0) { line = f[n]; for (i = n - 1; i >= 1; i--) line = line ";" f[i]; print line } s = 0; next }
s { sub(/^[ \\t]+/, ""); sub(/[ \\t]+line: [0-9]+.*$/, ""); sub(/\\(.*\\)$/, ""); if ($0 == "...") next; n++; f[n] = $0 }'`;

/** Folds perf script's samples (a header line, then frames leaf first, a blank line) into root-first stacks under the command's name. */
const PERF_FOLD = `awk 'function flush() { if (n > 0) { line = comm; for (i = n; i >= 1; i--) line = line ";" f[i]; print line } n = 0; h = 0 }
NF == 0 { flush(); next }
h == 0 { comm = $1; h = 1; n = 0; next }
{ sym = $2; for (i = 3; i < NF; i++) sym = sym " " $i; sub(/\\+0x[0-9a-f]+$/, "", sym); gsub(/;/, "_", sym)
  if (sym == "[unknown]") { mod = $NF; gsub(/[()]/, "", mod); sub(/.*\\//, "", mod); sym = "[" mod "]" }
  n++; f[n] = sym }
END { flush() }'`;

const WAIT_FOR_END = 'echo @started; cat >/dev/null';

/**
 * The flight recorder's settings: the execution samples the flame graph is folded from, every
 * `intervalMs`, and nothing else. The JDK's `default` settings also record sockets, locks,
 * allocations, GC phases and more (a tenth of the profile-cost bench's p99 on Jetty), none of which
 * the profile reads; an event a settings file does not name stays off.
 */
export function jfrSettings(intervalMs: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="Benchlab" description="Execution samples only" provider="Benchlab">
  <event name="jdk.ExecutionSample">
    <setting name="enabled">true</setting>
    <setting name="period">${intervalMs} ms</setting>
  </event>
</configuration>
`;
}

export function jfrCaptureCommand(pid: number, jcmd: string, jfr: string, runId: number, intervalMs: number): string {
  const name = `benchlab-run-${runId}`;
  return [
    'dir=$(mktemp -d /tmp/benchlab-profile-XXXXXX) || { echo "@failed no temporary folder"; exit 0; }',
    'chmod 777 "$dir"',
    // The server's JVM reads the settings file itself, perhaps as another user: readable by all.
    `printf '%s' ${shellQuote(jfrSettings(intervalMs))} >"$dir/benchlab.jfc" && chmod 644 "$dir/benchlab.jfc"`,
    `if ! ${shellQuote(jcmd)} ${pid} JFR.start name=${name} settings="$dir/benchlab.jfc" >"$dir/log" 2>&1 || grep -qi 'error\\|exception' "$dir/log"; then echo "@failed jcmd JFR.start: $(tr '\\n' ' ' <"$dir/log" | cut -c1-300)"; rm -rf "$dir"; exit 0; fi`,
    WAIT_FOR_END,
    `${shellQuote(jcmd)} ${pid} JFR.stop name=${name} filename="$dir/run.jfr" >"$dir/log" 2>&1`,
    `[ -s "$dir/run.jfr" ] || { echo "@failed jcmd JFR.stop wrote no recording: $(tr '\\n' ' ' <"$dir/log" | cut -c1-300)"; rm -rf "$dir"; exit 0; }`,
    'echo @counted',
    `${shellQuote(jfr)} print --events jdk.ExecutionSample --stack-depth 64 "$dir/run.jfr" | ${JFR_FOLD} | sort | uniq -c`,
    'rm -rf "$dir"',
  ].join('\n');
}

export function perfCaptureCommand(pids: number[], perf: string): string {
  return [
    'dir=$(mktemp -d /tmp/benchlab-profile-XXXXXX) || { echo "@failed no temporary folder"; exit 0; }',
    `${shellQuote(perf)} record -F ${PERF_HZ} -g -p ${pids.join(',')} -o "$dir/perf.data" >"$dir/log" 2>&1 &`,
    'rec=$!',
    // perf writes its header at once; a perf that cannot attach has ended by then.
    'i=0; while [ ! -s "$dir/perf.data" ] && kill -0 $rec 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done',
    `kill -0 $rec 2>/dev/null || { echo "@failed perf record: $(tr '\\n' ' ' <"$dir/log" | cut -c1-300)"; rm -rf "$dir"; exit 0; }`,
    WAIT_FOR_END,
    'kill -INT $rec; wait $rec',
    'echo @counted',
    `${shellQuote(perf)} script -i "$dir/perf.data" 2>/dev/null | ${PERF_FOLD} | sort | uniq -c`,
    'rm -rf "$dir"',
  ].join('\n');
}

/** V8: the server's own node runs the inspector script (it opens the server's inspector with SIGUSR1). */
export function v8CaptureCommand(pid: number, node: string, port: number, intervalUs: number): string {
  return `${shellQuote(node)} -e ${shellQuote(V8_INSPECTOR_SCRIPT)} ${pid} ${port} ${intervalUs}`;
}
