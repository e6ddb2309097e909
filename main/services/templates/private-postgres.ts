// The private PostgreSQL of a deployment whose database knob is on, on the server host: finding an
// installation (PostgreSQL 13+ from the host's packages), then in `<run>/postgres/` creating a
// cluster of its own (initdb as the user postgres when Benchlab logs in as root, password auth,
// 127.0.0.1 on a free port, no Unix socket), starting it with pg_ctl, creating the database and
// its owner, seeding the contract's tables and reading back its version and settings. It leaves
// `<run>/postgres/stop.sh` behind, which the supervisor and the stop script run before the run dir
// goes, so every way a deployment ends stops it, and `url` (the owner's URL, for a look inside;
// readable by the login user only). The system's cluster, its service and /var/lib/postgresql
// are never touched.

import { randomBytes } from 'node:crypto';
import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import {
  DATABASE_ADMIN,
  DATABASE_NAME,
  DATABASE_USER,
  parseFoundPostgres,
  postgresConfig,
  RECORDED_SETTINGS,
  seedSql,
  type DatabaseFacts,
  type FoundPostgres,
} from '../../../app/templates/template-database.ts';
import { postgresUrl } from '../../../app/templates/templates.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { candidatePorts, runStartScript } from './private-start.ts';
import { untilAborted } from './until-aborted.ts';

/** The folder in the run dir that holds the instance; host-scripts.ts knows it by this name. */
export const DATABASE_FOLDER = 'postgres';

/** Lists `postgres <bin dir> <postgres --version>` for every installation with initdb, pg_ctl and psql beside the server. */
function findScript(): string {
  return `{
for d in /usr/lib/postgresql/*/bin /usr/pgsql-*/bin /usr/lib64/pgsql*/bin /usr/local/pgsql/bin "$(pg_config --bindir 2>/dev/null)" "$(dirname "$(command -v pg_ctl 2>/dev/null || echo /none/x)")"; do
  [ -n "$d" ] && [ -x "$d/postgres" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/psql" ] || continue
  echo "postgres $d $("$d/postgres" --version 2>/dev/null | head -n 1)"
done
echo end
} </dev/null 2>/dev/null
`;
}

export async function findPostgres(transport: HostTransport, signal?: AbortSignal): Promise<FoundPostgres[]> {
  const result = await untilAborted(transport.exec('sh -s', { stdin: findScript(), timeoutMs: 30_000 }), signal);
  if (!result.stdout.includes('end')) throw new ApiError('unavailable', 'cannot look for PostgreSQL on the host');
  return parseFoundPostgres(result.stdout);
}

export interface PrivatePostgresSpec {
  /** `<run>/postgres`: the instance's folder, removed with the run dir. */
  dir: string;
  postgres: FoundPostgres;
  /** Benchlab logs in as root: the cluster belongs to the user postgres (initdb refuses root). */
  asRoot: boolean;
  /** The ports to try, in order; ten random ones by default (a test pins them). */
  ports?: readonly number[];
}

export interface StartedPostgres {
  url: string;
  facts: DatabaseFacts;
}

/** How the cluster's own commands run: as postgres via runuser for root, as the login user otherwise. */
function runAs(asRoot: boolean): string {
  return asRoot ? 'runuser -u postgres --' : '';
}

/**
 * stop.sh: stops the instance if its postmaster still runs (the pid in postmaster.pid whose working
 * directory is this data dir, so a pid reused after a reboot is never signalled), fast shutdown,
 * KILL if that does not end it in 20 s. Running it again does nothing.
 */
function stopScriptFile(spec: PrivatePostgresSpec): string {
  return `#!/bin/sh
# Benchlab: stops this deployment's private PostgreSQL. Run by the supervisor and by Stop.
cd "$(dirname "$0")" || exit 0
data="$(pwd -P)/data"
pid=$(head -n 1 data/postmaster.pid 2>/dev/null)
case $pid in ''|*[!0-9]*) exit 0 ;; esac
[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$data" ] || exit 0
${runAs(spec.asRoot)} ${shellQuote(`${spec.postgres.bin}/pg_ctl`)} -D "$data" -m fast -w -t 20 stop >/dev/null 2>&1 || kill -KILL "$pid" 2>/dev/null
exit 0
`;
}

/**
 * alive.sh, for the heartbeat: exits 0 while the postmaster runs (the pid in postmaster.pid, its
 * working directory this data dir), else prints its log's last lines as `log <line>` and exits 1.
 * Written once the instance serves, so a heartbeat never finds a start under way dead.
 */
function aliveScriptFile(): string {
  return `#!/bin/sh
# Benchlab: whether this deployment's private PostgreSQL runs. Run by the heartbeat.
cd "$(dirname "$0")" || exit 0
data="$(pwd -P)/data"
pid=$(head -n 1 data/postmaster.pid 2>/dev/null)
case $pid in ''|*[!0-9]*) ;; *) [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$data" ] && exit 0 ;; esac
[ -s data/postgres.log ] && tail -n 15 data/postgres.log | sed 's/^/log /'
exit 1
`;
}

function factsQuery(): string {
  const rows = [`SELECT 'version ' || current_setting('server_version')`, ...RECORDED_SETTINGS.map((name) => `SELECT 'setting ${name} ' || current_setting('${name}')`)];
  return rows.join(' UNION ALL ');
}

/** The whole start as one script; its lines are read by parseStartReport (progress lines as they come). */
function startScript(spec: PrivatePostgresSpec, passwords: { admin: string; user: string }, ports: readonly number[]): string {
  const dir = shellQuote(spec.dir);
  const bin = (tool: string) => shellQuote(`${spec.postgres.bin}/${tool}`);
  const as = runAs(spec.asRoot);
  const psql = (user: string, database: string) => `${bin('psql')} -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U ${user} -d ${database}`;
  return `{
umask 022
fail() {
  echo "error $1"
  for f in initdb.log psql.log data/postgres.log; do [ -f "$f" ] && tail -n 15 "$f" | sed 's/^/log /'; done
  exit 0
}
${spec.asRoot ? `command -v runuser >/dev/null 2>&1 || fail "runuser (util-linux) is missing: Benchlab runs PostgreSQL as the user postgres with it"
id -u postgres >/dev/null 2>&1 || fail "there is no user postgres (the PostgreSQL package creates it): reinstall the package"` : ''}
rm -rf ${dir} && mkdir -p ${dir} && cd ${dir} || fail "cannot create ${spec.dir}"
cat > stop.sh <<'BENCHLAB_STOP'
${stopScriptFile(spec)}BENCHLAB_STOP
mkdir data && chmod 700 data || fail "cannot create the data folder"
printf '%s\\n' ${shellQuote(passwords.admin)} > pwfile && chmod 600 pwfile
${spec.asRoot ? 'chown postgres data pwfile || fail "cannot give the data folder to the user postgres"' : ''}
${as} test -w data || fail "the user postgres cannot reach ${spec.dir}: a folder above it is closed to it"
echo "progress initdb (PostgreSQL ${spec.postgres.version})"
${as} ${bin('initdb')} -D "$(pwd -P)/data" -U ${DATABASE_ADMIN} --pwfile="$(pwd -P)/pwfile" --auth=scram-sha-256 --encoding=UTF8 --locale=C --no-sync > initdb.log 2>&1 || fail "initdb failed"
rm -f pwfile
# A port is taken when any socket holds it, listening or connected: a load run leaves many
# connections on ports of the ephemeral range, and the bind fails on those as well.
taken() {
  awk -v p=":$(printf '%04X' "$1")" 'FNR > 1 && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
# Between the look and the bind another socket may take the port: then the next candidate.
printf '%s\\n' ${shellQuote(postgresConfig())} >> data/postgresql.conf
port=
for candidate in ${ports.join(' ')}; do
  taken "$candidate" && continue
  echo "port = $candidate" >> data/postgresql.conf
  echo "progress starting PostgreSQL on 127.0.0.1:$candidate"
  if ${as} ${bin('pg_ctl')} -D "$(pwd -P)/data" -l "$(pwd -P)/data/postgres.log" -w -t 60 start > /dev/null 2>&1; then port=$candidate; break; fi
  grep -q 'could not bind' data/postgres.log 2>/dev/null || fail "PostgreSQL did not start"
  : > data/postgres.log
done
[ -n "$port" ] || fail "no free port for PostgreSQL on 127.0.0.1 (ten tried)"
PGCLIENTENCODING=UTF8; export PGCLIENTENCODING
echo "progress creating the database ${DATABASE_NAME} and its owner"
PGPASSWORD=${shellQuote(passwords.admin)} ${psql(DATABASE_ADMIN, 'postgres')} -c ${shellQuote(`CREATE ROLE ${DATABASE_USER} LOGIN PASSWORD '${passwords.user}'`)} -c ${shellQuote(`CREATE DATABASE ${DATABASE_NAME} OWNER ${DATABASE_USER}`)} > psql.log 2>&1 || fail "cannot create the database"
echo "progress seeding world, fortune and docs"
PGPASSWORD=${shellQuote(passwords.user)} ${psql(DATABASE_USER, DATABASE_NAME)} -f - > psql.log 2>&1 <<'BENCHLAB_SEED' || fail "cannot seed the database"
${seedSql()}BENCHLAB_SEED
PGPASSWORD=${shellQuote(passwords.user)} ${psql(DATABASE_USER, DATABASE_NAME)} -At -c ${shellQuote(factsQuery())} 2>psql.log || fail "cannot read the database's settings"
# For a person (or a test) who wants to look inside: the owner's URL, readable by the login user only.
(umask 077; printf 'postgresql://${DATABASE_USER}:%s@127.0.0.1:%s/${DATABASE_NAME}\n' ${shellQuote(passwords.user)} "$port" > url)
cat > alive.sh <<'BENCHLAB_ALIVE'
${aliveScriptFile()}BENCHLAB_ALIVE
echo "port $port"
echo started
} </dev/null 2>&1
`;
}

/**
 * Creates, starts and seeds the instance; `onProgress` hears each stage. A failure says why with
 * the instance's last log lines; what was created stays for the stop script to remove. A cancel
 * waits for the host's script to end, so the cleanup after it finds everything in place.
 */
export async function startPrivatePostgres(transport: HostTransport, spec: PrivatePostgresSpec, onProgress: (stage: string) => void, signal?: AbortSignal): Promise<StartedPostgres> {
  const passwords = { admin: randomBytes(18).toString('hex'), user: randomBytes(18).toString('hex') };
  const report = await runStartScript(transport, startScript(spec, passwords, spec.ports ?? candidatePorts()), 'the private PostgreSQL', onProgress, signal);
  return {
    url: postgresUrl({ user: DATABASE_USER, password: passwords.user, port: report.port, name: DATABASE_NAME }),
    facts: { kind: 'postgresql', version: report.version, port: report.port, name: DATABASE_NAME, user: DATABASE_USER, settings: report.settings },
  };
}

/** For host-scripts.ts: stops the run dir's instance, if any (run from inside the run dir). */
export const STOP_DATABASE_LINE = `[ -f ${DATABASE_FOLDER}/stop.sh ] && sh ${DATABASE_FOLDER}/stop.sh`;
