// The POSIX sh scripts the deployer runs on a server host: the probe (who, where, which runtimes),
// the supervisor that owns a running server, and the start, readiness, log-watch, heartbeat,
// inspect and stop scripts around it. Every value reaches them shell-quoted. Linux hosts: process
// liveness is read from /proc, so a zombie never counts as running.

import { shellQuote } from '../../../app/common/shell-quote.ts';
import { MONGO_FOLDER, STOP_MONGO_LINE } from './private-mongo.ts';
import { DATABASE_FOLDER, STOP_DATABASE_LINE } from './private-postgres.ts';

/** Where the probe looks for sbin tools a non-root login's PATH often lacks (apache2, httpd). */
const EXTRA_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Shell functions shared by the scripts. `group_alive PGID`: some process of that group is running
 * (not a zombie). `same_boot`: the run dir was written since the host last booted, so its pids
 * still mean what they meant.
 */
const PRELUDE = `
group_alive() {
  case $1 in ''|*[!0-9]*) return 1 ;; esac
  # cat, not awk, opens the files: a process that ends meanwhile is skipped, not fatal.
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v g="$1" '{ sub(/^.*\\) /, ""); if ($3 == g && $1 != "Z") found = 1 } END { exit !found }'
}
same_boot() {
  [ "$(cat boot-id 2>/dev/null)" = "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)" ]
}
`;

/**
 * Facts about the host as `key value` lines for parseHostFacts. `runtimePath` replaces where
 * runtimes are looked for (default: PATH plus the sbin folders).
 */
export function probeScript(runtimePath?: string): string {
  return `{
PATH="$PATH:${EXTRA_PATH}"; export PATH
echo "home $HOME"
echo "user $(id -un)"
echo "uid $(id -u)"
echo "hostname $(uname -n)"
echo "arch $(uname -m)"
for t in setsid awk sha256sum tar gzip curl wget bash; do command -v "$t" >/dev/null 2>&1 && echo "tool $t"; done
for m in apt-get dnf yum apk zypper pacman; do if command -v "$m" >/dev/null 2>&1; then echo "pm $m"; break; fi; done
RUNTIME_PATH=${runtimePath === undefined ? '"$PATH"' : shellQuote(runtimePath)}
find_in() {
  old_ifs=$IFS; IFS=:
  for d in $RUNTIME_PATH; do
    if [ -n "$d" ] && [ -f "$d/$1" ] && [ -x "$d/$1" ]; then IFS=$old_ifs; echo "$d/$1"; return 0; fi
  done
  IFS=$old_ifs; return 1
}
if n=$(find_in node || find_in nodejs); then echo "node $n $("$n" --version 2>/dev/null | head -n 1)"; fi
if a=$(find_in apache2 || find_in httpd); then
  case $(readlink -f "$a" 2>/dev/null || echo "$a") in
    */busybox*|*/toybox*) ;;
    *)
      mods=-
      for m in /usr/lib/apache2/modules /usr/lib64/httpd/modules /usr/lib/httpd/modules /usr/lib64/apache2 /usr/lib/apache2 /usr/local/apache2/modules "$(dirname "$(dirname "$a")")/modules"; do
        if [ -f "$m/mod_mpm_event.so" ]; then mods=$m; break; fi
      done
      echo "apache2 $a $mods $("$a" -v 2>/dev/null | sed -n 's/^Server version: *//p')"
      ;;
  esac
fi
# Every Java: PATH's first, then JAVA_HOME and the usual JVM folders (unless told where to look).
# The version comes from the JDK's release file, which costs no JVM start; else from java -version.
seen=' '
for j in "$(find_in java)" ${runtimePath === undefined ? '${JAVA_HOME:+"$JAVA_HOME/bin/java"} /usr/lib/jvm/*/bin/java /usr/lib64/jvm/*/bin/java /usr/java/*/bin/java /opt/java/*/bin/java' : ''}; do
  [ -n "$j" ] && [ -f "$j" ] && [ -x "$j" ] || continue
  r=$(readlink -f "$j" 2>/dev/null || echo "$j")
  case $seen in *" $r "*) continue ;; esac
  seen="$seen$r "
  v=$(awk -F'"' '/^JAVA_VERSION=/ { print $2; exit }' "$(dirname "$(dirname "$r")")/release" 2>/dev/null)
  [ -n "$v" ] || v=$("$r" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')
  echo "java $r $v"
done
echo end
} </dev/null 2>/dev/null
`;
}

/**
 * The supervisor, uploaded as bin/supervise.sh and started with setsid, so it leads a new session
 * and process group holding the server and everything the server starts. It records its pid (the
 * group id), runs the server with output to server.log, and stops it when Benchlab's heartbeat
 * (the host's clock, written into ./heartbeat) is older than the allowed age: Benchlab's SSH
 * session is gone for good. When the server exits, it records the exit code and kills whatever is
 * left in the group, itself included.
 *
 * Usage: setsid sh supervise.sh RUN_DIR MAX_HEARTBEAT_AGE_S STOP_SIGNAL GRACE_S -- ARGV...
 */
export const SUPERVISOR_SCRIPT = `#!/bin/sh
# Benchlab's supervisor for one server under test. Started by Benchlab; see server-templates/CONTRACT.md.
run=$1 max_age=$2 stop_signal=$3 grace=$4
shift 5
cd "$run" || exit 1
echo $$ > supervisor.pid.tmp && mv -f supervisor.pid.tmp supervisor.pid
"$@" >> server.log 2>&1 </dev/null &
child=$!
echo "$child" > server.pid
(
  while sleep 1; do
    beat=$(cat heartbeat 2>/dev/null)
    case $beat in ''|*[!0-9]*) beat=0 ;; esac
    if [ $(( $(date +%s) - beat )) -gt "$max_age" ]; then
      echo "benchlab supervisor: no heartbeat from Benchlab for over $max_age s (its connection is gone); stopping the server" >> server.log
      kill -"$stop_signal" "$child" 2>/dev/null
      sleep "$grace"
      kill -KILL "$child" 2>/dev/null
      exit 0
    fi
  done
) &
watchdog=$!
while :; do
  wait "$child"
  code=$?
  kill -0 "$child" 2>/dev/null || break
done
kill "$watchdog" 2>/dev/null
echo "$code" > exit-code.tmp && mv -f exit-code.tmp exit-code
# The deployment's private database (if its knob was on) ends with its server.
${STOP_DATABASE_LINE}
${STOP_MONGO_LINE}
# Whatever the server left in the group (workers, children) goes with it.
kill -KILL 0
`;

export interface RunPaths {
  /** Benchlab's folder on the host. */
  root: string;
  /** This host's run dir (pids, heartbeat, logs). */
  run: string;
}

export function supervisorPath(root: string): string {
  return `${root}/bin/supervise.sh`;
}

/**
 * Reports what the run dir holds, as lines: `deployment <json>`, `supervisor <pid>`, `alive
 * yes|no`, `heartbeat-age <s>`, `exit-code <n>`, `stale-boot`, `port-in-use` (for `port`), `end`.
 */
export function inspectScript(run: string, port: number): string {
  return `{
${PRELUDE}
hex=$(printf '%04X' ${port})
if awk -v p=":$hex" 'FNR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; then echo port-in-use; fi
if cd ${shellQuote(run)} 2>/dev/null; then
  [ -f deployment.json ] && echo "deployment $(head -c 4096 deployment.json | tr -d '\\n')"
  { [ -d ${DATABASE_FOLDER} ] || [ -d ${MONGO_FOLDER} ]; } && echo database
  if same_boot; then
    sup=$(cat supervisor.pid 2>/dev/null)
    echo "supervisor $sup"
    if group_alive "$sup"; then echo "alive yes"; else echo "alive no"; fi
  else
    echo stale-boot
  fi
  beat=$(cat heartbeat 2>/dev/null)
  case $beat in ''|*[!0-9]*) ;; *) echo "heartbeat-age $(( $(date +%s) - beat ))" ;; esac
  [ -f exit-code ] && echo "exit-code $(cat exit-code)"
fi
# A plan holding the host (holdScript's lock taken, and its record written): who, so a deploy is
# refused before any question. Read from /proc/locks, not by trying the lock: a try would hold it
# for a moment, and a plan starting then would be refused.
ino=$(stat -c %i ${shellQuote(`${run}.hold-lock`)} 2>/dev/null)
if [ -n "$ino" ] && [ -s ${shellQuote(`${run}.hold`)} ] && grep -q ":$ino " /proc/locks 2>/dev/null; then
  echo "held $(head -c 2000 ${shellQuote(`${run}.hold`)} 2>/dev/null | tr -d '\\n')"
fi
echo end
} </dev/null 2>/dev/null
`;
}

export interface StartSpec {
  paths: RunPaths;
  /** One line of JSON naming the deployment (template, variant, port, Benchlab's id for it). */
  deploymentJson: string;
  /** The rendered, quoted start command. */
  commandLine: string;
  /** Files written into the fresh run dir before the server starts (a runtime's monitor: app/runs/runtime-monitors.ts). */
  files?: ReadonlyArray<{ name: string; text: string }>;
  logs: readonly string[];
  maxHeartbeatAgeSeconds: number;
  stopSignal: string;
  graceSeconds: number;
}

/** Creates a fresh run dir, starts the supervisor detached, and prints `supervisor <pid>` once it runs. */
export function startScript(spec: StartSpec): string {
  const run = shellQuote(spec.paths.run);
  const logs = spec.logs.map((log) => `mkdir -p "$(dirname ${shellQuote(log)})" && : > ${shellQuote(log)}`).join('\n');
  return `{
umask 022
# A fresh run dir, but for the private database the deploy has just started in it.
mkdir -p ${run} && cd ${run} && find . -mindepth 1 -maxdepth 1 ! -name ${DATABASE_FOLDER} ! -name ${MONGO_FOLDER} -exec rm -rf {} + || { echo "error cannot create the run dir"; exit 1; }
printf '%s\\n' ${shellQuote(spec.deploymentJson)} > deployment.json
${(spec.files ?? []).map((file) => `printf '%s' ${shellQuote(file.text)} > ${shellQuote(file.name)}`).join('\n')}
cat /proc/sys/kernel/random/boot_id > boot-id 2>/dev/null
date +%s > heartbeat
: > server.log
${logs}
setsid sh ${shellQuote(supervisorPath(spec.paths.root))} ${run} ${spec.maxHeartbeatAgeSeconds} ${shellQuote(spec.stopSignal)} ${spec.graceSeconds} -- ${spec.commandLine} </dev/null >/dev/null 2>&1 &
i=0
while [ ! -s supervisor.pid ] && [ "$i" -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
if [ -s supervisor.pid ]; then echo "supervisor $(cat supervisor.pid)"; else echo "error the supervisor did not start"; fi
} </dev/null 2>&1
`;
}

export interface ReadinessSpec {
  run: string;
  port: number;
  path: string;
  timeoutSeconds: number;
  /** A node binary on the host, for hosts without curl, wget and bash. */
  node: string | null;
}

/**
 * Polls http://127.0.0.1:PORT/PATH on the host until it answers 200 (`ready`), the server's group
 * ends (`dead <exit code|?>`) or time runs out (`timeout <last status>`).
 */
export function readinessScript(spec: ReadinessSpec): string {
  const url = shellQuote(`http://127.0.0.1:${spec.port}${spec.path}`);
  const nodeProbe = spec.node
    ? `${shellQuote(spec.node)} -e 'require("http").get(process.argv[1], { timeout: 2000 }, (r) => { console.log(r.statusCode); r.resume(); }).on("error", () => console.log(0))' ${url}`
    : 'echo 0';
  return `{
${PRELUDE}
cd ${shellQuote(spec.run)} || { echo "dead ?"; exit 0; }
sup=$(cat supervisor.pid 2>/dev/null)
probe() {
  if command -v curl >/dev/null 2>&1; then curl -s -o /dev/null -m 2 -w '%{http_code}' ${url}
  elif command -v wget >/dev/null 2>&1; then if wget -q -T 2 -O /dev/null ${url}; then echo 200; else echo 0; fi
  elif command -v bash >/dev/null 2>&1; then
    bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 0; printf "GET %s HTTP/1.0\\r\\nHost: 127.0.0.1\\r\\n\\r\\n" "$2" >&3; read -r -t 2 _ code _ <&3; echo "$code"' _ ${spec.port} ${shellQuote(spec.path)} 2>/dev/null
  else ${nodeProbe}
  fi
}
deadline=$(( $(date +%s) + ${spec.timeoutSeconds} ))
last=none
while :; do
  if ! group_alive "$sup"; then echo "dead $(cat exit-code 2>/dev/null || echo '?')"; exit 0; fi
  last=$(probe)
  if [ "$last" = 200 ]; then echo ready; exit 0; fi
  if [ "$(date +%s)" -ge "$deadline" ]; then echo "timeout $last"; exit 0; fi
  sleep 0.1
done
} </dev/null 2>/dev/null
`;
}

/** Streams the server's log files (tail -f; from their start, or only new lines) until the supervisor's group ends. */
export function watchScript(run: string, logs: readonly string[], fromStart: boolean): string {
  const files = ['server.log', ...logs].map(shellQuote).join(' ');
  return `{
${PRELUDE}
cd ${shellQuote(run)} || exit 0
sup=$(cat supervisor.pid 2>/dev/null)
tail -n ${fromStart ? '+1' : '0'} -f ${files} 2>/dev/null &
t=$!
while group_alive "$sup"; do sleep 0.5; done
sleep 0.5
kill "$t" 2>/dev/null
} </dev/null
`;
}

/**
 * Writes the host's clock into the heartbeat file; prints `alive`, `dead`, `replaced` (another
 * deployment's run dir), or `database-ended` after the private database's last log lines (`log <line>`).
 */
export function heartbeatScript(run: string, deploymentId: string): string {
  return `{
${PRELUDE}
cd ${shellQuote(run)} 2>/dev/null || { echo dead; exit 0; }
# Another deployment in the run dir is not ours to keep alive: its own Benchlab beats for it.
grep -qF ${shellQuote(`"id":${JSON.stringify(deploymentId)}`)} deployment.json 2>/dev/null || { echo replaced; exit 0; }
date +%s > heartbeat.tmp && mv -f heartbeat.tmp heartbeat
group_alive "$(cat supervisor.pid 2>/dev/null)" || { echo dead; exit 0; }
# The server runs; its private database, when it has one, must too. Each database's folder has an
# alive.sh once it serves, which fails (printing its log's last lines) when the instance has ended.
for db in ${DATABASE_FOLDER} ${MONGO_FOLDER}; do
  if [ -f "$db/alive.sh" ] && ! sh "$db/alive.sh"; then echo database-ended; exit 0; fi
done
echo alive
} </dev/null 2>/dev/null
`;
}

/**
 * Stops the server (its stop signal, then KILL to the whole group after the grace), prints the
 * last log lines as `log <line>`, removes the run dir, and says `stopped graceful|killed|none`.
 */
export function stopScript(run: string, signal: string, graceSeconds: number, logs: readonly string[]): string {
  const files = ['server.log', ...logs].map(shellQuote).join(' ');
  return `{
${PRELUDE}
cd ${shellQuote(run)} 2>/dev/null || { echo "stopped none"; exit 0; }
how=none
if same_boot; then
  sup=$(cat supervisor.pid 2>/dev/null)
  child=$(cat server.pid 2>/dev/null)
  if group_alive "$sup"; then
    how=graceful
    : > stop-requested
    case $child in ''|*[!0-9]*) ;; *) kill -${signal} "$child" 2>/dev/null ;; esac
    i=0
    while group_alive "$sup" && [ "$i" -lt ${graceSeconds * 10} ]; do sleep 0.1; i=$((i + 1)); done
    if group_alive "$sup"; then
      how=killed
      kill -KILL -"$sup" 2>/dev/null
      i=0
      while group_alive "$sup" && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    fi
  fi
fi
${STOP_DATABASE_LINE}
${STOP_MONGO_LINE}
for f in ${files}; do [ -f "$f" ] && tail -n 40 "$f" | sed 's/^/log /'; done
cd / && rm -rf ${shellQuote(run)}
echo "stopped $how"
} </dev/null 2>/dev/null
`;
}

/**
 * Holds the host for one Benchlab while its plan runs: an exclusive flock beside the run dir, kept by
 * `cat` until Benchlab closes stdin (or its link drops, or it dies: the channel closes either way).
 * Prints `held`, or `busy <the holder's JSON>` when another holds it, or `no-flock`.
 */
export function holdScript(run: string, holderJson: string): string {
  const lock = shellQuote(`${run}.hold-lock`);
  const info = shellQuote(`${run}.hold`);
  return `mkdir -p "$(dirname ${lock})" 2>/dev/null
command -v flock >/dev/null 2>&1 || { echo no-flock; exit 0; }
exec 9>>${lock} || { echo "error cannot open ${lock}"; exit 1; }
if flock -n 9; then
  printf '%s\\n' ${shellQuote(holderJson)} > ${info}.tmp && mv -f ${info}.tmp ${info}
  echo held
  cat >/dev/null
  rm -f ${info}
else
  # The holder writes who it is right after it got the lock: give it a moment to say so.
  i=0; while [ ! -s ${info} ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
  echo "busy $(head -c 2000 ${info} 2>/dev/null | tr -d '\\n')"
fi
`;
}
