// The private MongoDB-protocol database of a deployment whose database knob is `mongo`, on the
// server host: the host's own mongod when it has one, else FerretDB (Benchlab's static binary,
// uploaded to `<root>/bin`). In `<run>/mongo/` it starts an instance of its own on 127.0.0.1 at a
// free port, with a data folder of its own (mongod's dbpath, FerretDB's SQLite files) and no
// authentication, seeds the contract's `docs` collection and reads back the version and settings
// (FerretDB's binary does both, for mongod too: no MongoDB shell is needed). It leaves
// `<run>/mongo/stop.sh` behind, which the supervisor and the stop script run before the run dir
// goes, as for the private PostgreSQL. The system's mongod service and its dbpath are never touched.

import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import { SEEDED_DOCS, type DatabaseFacts } from '../../../app/templates/template-database.ts';
import { MONGO_DATABASE_NAME, mongoSettings, mongoUrl, parseFoundMongod, type FoundMongod } from '../../../app/templates/template-mongo.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { candidatePorts, runStartScript } from './private-start.ts';
import { untilAborted } from './until-aborted.ts';

/** The folder in the run dir that holds the instance; host-scripts.ts knows it by this name. */
export const MONGO_FOLDER = 'mongo';

export interface MongoLookup {
  mongods: FoundMongod[];
  /** `uname -m`: FerretDB's binary runs on x86_64 only. */
  arch: string;
}

function findScript(): string {
  return `{
for m in "$(command -v mongod 2>/dev/null)" /usr/bin/mongod /usr/local/bin/mongod /opt/mongodb/bin/mongod; do
  [ -n "$m" ] && [ -x "$m" ] || continue
  echo "mongod $(readlink -f "$m") $("$m" --version 2>/dev/null | head -n 1)"
done
echo "arch $(uname -m)"
echo end
} </dev/null 2>/dev/null
`;
}

export async function findMongo(transport: HostTransport, signal?: AbortSignal): Promise<MongoLookup> {
  const result = await untilAborted(transport.exec('sh -s', { stdin: findScript(), timeoutMs: 30_000 }), signal);
  if (!result.stdout.includes('end')) throw new ApiError('unavailable', 'cannot look for mongod on the host');
  return { mongods: parseFoundMongod(result.stdout), arch: /^arch (\S+)/m.exec(result.stdout)?.[1] ?? 'unknown' };
}

export interface PrivateMongoSpec {
  /** `<run>/mongo`: the instance's folder, removed with the run dir. */
  dir: string;
  /** The host's mongod to run, or null for FerretDB. */
  mongod: FoundMongod | null;
  /** The uploaded FerretDB binary: it serves without a mongod, and seeds and reads the facts either way. */
  ferretdb: string;
  /** The ports to try, in order; ten random ones by default (a test pins them). */
  ports?: readonly number[];
}

export interface StartedMongo {
  url: string;
  facts: DatabaseFacts;
}

/**
 * stop.sh: TERM to the instance's process if it still runs (the pid in `pid`, only while its
 * command line names this data folder, so a pid reused after a reboot is never signalled), KILL
 * if that does not end it in 20 s. Running it again does nothing.
 */
function stopScriptFile(): string {
  return `#!/bin/sh
# Benchlab: stops this deployment's private MongoDB-protocol database. Run by the supervisor and by Stop.
cd "$(dirname "$0")" || exit 0
data="$(pwd -P)/data"
pid=$(head -n 1 pid 2>/dev/null)
case $pid in ''|*[!0-9]*) exit 0 ;; esac
tr '\\0' '\\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$data" || exit 0
kill -TERM "$pid" 2>/dev/null
i=0
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
kill -KILL "$pid" 2>/dev/null
exit 0
`;
}

/**
 * alive.sh, for the heartbeat: exits 0 while the instance runs (the pid in `pid`, its command line
 * naming this data folder), else prints its log's last lines as `log <line>` and exits 1. Written
 * once the instance serves, so a heartbeat never finds a start under way dead.
 */
function aliveScriptFile(): string {
  return `#!/bin/sh
# Benchlab: whether this deployment's private MongoDB-protocol database runs. Run by the heartbeat.
cd "$(dirname "$0")" || exit 0
data="$(pwd -P)/data"
pid=$(head -n 1 pid 2>/dev/null)
tr '\\0' '\\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$data" && exit 0
for f in ferretdb.log mongod.log; do [ -s "$f" ] && tail -n 15 "$f" | sed 's/^/log /'; done
exit 1
`;
}

/**
 * FerretDB's memory limit on this host: a quarter of its memory, at most 4 GiB (FerretDB v1 sorts a
 * whole collection in memory per read, so a long run on a fast server can grow it without end;
 * over the limit it stops with `out of memory` in ferretdb.log rather than take the host's memory).
 */
const FERRETDB_MEMORY_LIMIT_SHELL = `limit=$(awk '/^MemTotal:/ { b = $2 * 1024 / 4; if (b > 4294967296) b = 4294967296; printf "%.0f", b }' /proc/meminfo)
[ -n "$limit" ] && [ "$limit" -gt 0 ] || limit=1073741824`;

function startFerretdb(ferretdb: string, ports: readonly number[]): string {
  return `echo "progress starting FerretDB (SQLite) on 127.0.0.1"
${FERRETDB_MEMORY_LIMIT_SHELL}
setsid ${ferretdb} serve --dir "$data" --ports ${ports.join(',')} --port-file "$(pwd -P)/port" --memory-limit "$limit" </dev/null > ferretdb.log 2>&1 &
echo $! > pid
i=0
while [ ! -s port ] && kill -0 "$(cat pid)" 2>/dev/null && [ "$i" -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ -s port ] || fail "FerretDB did not start"
port=$(cat port)
`;
}

function startMongod(mongod: FoundMongod, ports: readonly number[]): string {
  return `# A port is taken when any socket holds it, listening or connected.
taken() {
  awk -v p=":$(printf '%04X' "$1")" 'FNR > 1 && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
port=
for candidate in ${ports.join(' ')}; do
  taken "$candidate" && continue
  echo "progress starting mongod ${mongod.version} on 127.0.0.1:$candidate"
  if ${shellQuote(mongod.path)} --dbpath "$data" --bind_ip 127.0.0.1 --port "$candidate" --fork --logpath "$(pwd -P)/mongod.log" --pidfilepath "$(pwd -P)/pid" > fork.log 2>&1; then port=$candidate; break; fi
  grep -q 'Address already in use' mongod.log 2>/dev/null || fail "mongod did not start"
  : > mongod.log
done
[ -n "$port" ] || fail "no free port for mongod on 127.0.0.1 (ten tried)"
`;
}

/** The whole start as one script; its lines are read by parseStartReport (progress lines as they come). */
function startScript(spec: PrivateMongoSpec, ports: readonly number[]): string {
  const ferretdb = shellQuote(spec.ferretdb);
  const server = spec.mongod ? 'mongod' : 'ferretdb';
  const version = spec.mongod ? 'echo "version $(sed -n \'s/^version //p\' seed.out)"' : `echo "version $(${ferretdb} version) (MongoDB $(sed -n 's/^version //p' seed.out))"`;
  const settings = Object.entries(mongoSettings(server)).map(([name, value]) => `echo ${shellQuote(`setting ${name} ${value}`)}`);
  return `{
umask 022
fail() {
  echo "error $1"
  for f in ferretdb.log mongod.log fork.log seed.log; do [ -s "$f" ] && tail -n 15 "$f" | sed 's/^/log /'; done
  exit 0
}
rm -rf ${shellQuote(spec.dir)} && mkdir -p ${shellQuote(spec.dir)} && cd ${shellQuote(spec.dir)} || fail "cannot create ${spec.dir}"
cat > stop.sh <<'BENCHLAB_STOP'
${stopScriptFile()}BENCHLAB_STOP
mkdir data && chmod 700 data || fail "cannot create the data folder"
data="$(pwd -P)/data"
${spec.mongod ? startMongod(spec.mongod, ports) : startFerretdb(ferretdb, ports)}
echo "progress seeding docs"
${ferretdb} seed --url "mongodb://127.0.0.1:$port/${MONGO_DATABASE_NAME}" --docs ${SEEDED_DOCS} > seed.out 2> seed.log || fail "cannot seed the database"
grep -qx seeded seed.out || fail "the seed did not finish"
${version}
grep '^setting ' seed.out
${settings.join('\n')}
${spec.mongod ? '' : 'echo "setting memoryLimit $((limit / 1048576)) MiB"'}
cat > alive.sh <<'BENCHLAB_ALIVE'
${aliveScriptFile()}BENCHLAB_ALIVE
echo "port $port"
echo started
} </dev/null 2>&1
`;
}

/**
 * Starts and seeds the instance; `onProgress` hears each stage. A failure says why with the
 * instance's last log lines; what was created stays for the stop script to remove.
 */
export async function startPrivateMongo(transport: HostTransport, spec: PrivateMongoSpec, onProgress: (stage: string) => void, signal?: AbortSignal): Promise<StartedMongo> {
  const server = spec.mongod ? 'mongod' : 'ferretdb';
  const report = await runStartScript(transport, startScript(spec, spec.ports ?? candidatePorts()), `the private ${server === 'mongod' ? 'mongod' : 'FerretDB'}`, onProgress, signal);
  return {
    url: mongoUrl(report.port),
    facts: { kind: server, version: report.version, port: report.port, name: MONGO_DATABASE_NAME, user: '', settings: report.settings },
  };
}

/** For host-scripts.ts: stops the run dir's instance, if any (run from inside the run dir). */
export const STOP_MONGO_LINE = `[ -f ${MONGO_FOLDER}/stop.sh ] && sh ${MONGO_FOLDER}/stop.sh`;
