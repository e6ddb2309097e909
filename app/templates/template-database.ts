// The private PostgreSQL a template's database knob asks for, as pure decisions: which of the
// host's PostgreSQL installations serves (the lookup script's lines read, the newest one new
// enough picked), the sentence and install command when none does, the schema and seed every
// database template reads (server-templates/CONTRACT.md), the settings it runs with, and the
// start script's report read into the facts recorded with the deployment.

import { z } from 'zod';
import { installPackageCommand, parseLookupLines, type PackageManager } from './template-hosts.ts';

export interface FoundPostgres {
  /** The folder holding initdb, pg_ctl, postgres and psql. */
  bin: string;
  /** `postgres --version`'s number, e.g. "15.14". */
  version: string;
}

/** The lookup's `postgres <bin dir> <version>` lines; anything else is ignored. */
export function parseFoundPostgres(text: string): FoundPostgres[] {
  return parseLookupLines(text, 'postgres', /(\d+(?:\.\d+)?)/).map(({ path, version }) => ({ bin: path, version }));
}

export function postgresMajor(version: string): number {
  return Number(/^(\d+)/.exec(version)?.[1] ?? 0);
}

/** The newest installation of at least `minVersion` (the host's own choice when it has several). */
export function pickPostgres(found: readonly FoundPostgres[], minVersion: number): FoundPostgres | null {
  const usable = found.filter((candidate) => postgresMajor(candidate.version) >= minVersion);
  return usable.sort((a, b) => postgresMajor(b.version) - postgresMajor(a.version))[0] ?? null;
}

const POSTGRES_PACKAGES: Record<PackageManager, string> = {
  'apt-get': 'postgresql',
  dnf: 'postgresql-server',
  yum: 'postgresql-server',
  apk: 'postgresql',
  zypper: 'postgresql-server',
  pacman: 'postgresql',
};

/** What to say when no installation serves: what is missing, what was found, and how to install it. */
export function missingPostgres(hostName: string, minVersion: number, found: readonly FoundPostgres[], manager: PackageManager | null): string {
  const seen = found.length > 0 ? ` (found ${found.map((candidate) => `${candidate.version} in ${candidate.bin}`).join(', ')})` : '';
  const how = manager ? installPackageCommand(manager, POSTGRES_PACKAGES[manager]) : 'install it with the host\'s package manager';
  return `PostgreSQL ${minVersion}+ is not installed on ${hostName}${seen}: ${how}`;
}

/** The database, its owner and its superuser in every private instance; the passwords are new each deploy. */
export const DATABASE_NAME = 'benchlab';
export const DATABASE_USER = 'benchlab';
export const DATABASE_ADMIN = 'benchlab_admin';

/**
 * postgresql.conf lines on top of initdb's (the port is added on the host, once a free one is
 * found): loopback only, no Unix socket (nothing of the system's /var/run/postgresql is touched),
 * and room for every server process's pool (at most 32 each). Everything else stays PostgreSQL's
 * default, durable commits included; what runs is recorded.
 */
export function postgresConfig(): string {
  return ["listen_addresses = '127.0.0.1'", "unix_socket_directories = ''", 'max_connections = 512', "log_destination = 'stderr'", 'logging_collector = off'].join('\n');
}

/** The settings recorded with the deployment, read back from the running instance. */
export const RECORDED_SETTINGS = ['shared_buffers', 'max_connections', 'synchronous_commit', 'fsync', 'work_mem'] as const;

/** TechEmpower's twelve fortunes; /fortunes adds one more at request time. */
export const FORTUNES: readonly string[] = [
  'fortune: No such file or directory',
  "A computer scientist is someone who fixes things that aren't broken.",
  'After enough decimal places, nobody gives a damn.',
  'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1',
  'A computer program does what you tell it to do, not what you want it to do.',
  'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen',
  'Any program that runs right is obsolete.',
  'A list is only as strong as its weakest link. — Donald Knuth',
  'Feature: A bug with seniority.',
  'Computers make very fast, very accurate mistakes.',
  '<script>alert("This should not be displayed in a browser alert box.");</script>',
  'フレームワークのベンチマーク',
];

export const WORLD_ROWS = 10_000;
export const SEEDED_DOCS = 100;

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** `length` random letters a–z, evaluated per row (the reference to `row` keeps it from being computed once). */
function randomLetters(length: number): string {
  return `(SELECT string_agg(chr(97 + floor(random() * 26)::int), '') FROM generate_series(1, ${length}) WHERE row > 0)`;
}

/** The schema and rows of server-templates/CONTRACT.md, run as the database's owner in one transaction. */
export function seedSql(): string {
  return `BEGIN;
CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL);
INSERT INTO world (id, randomnumber) SELECT row, 1 + floor(random() * ${WORLD_ROWS})::int FROM generate_series(1, ${WORLD_ROWS}) AS row;
CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) NOT NULL);
INSERT INTO fortune (id, message) VALUES
${FORTUNES.map((message, index) => `  (${index + 1}, ${sqlString(message)})`).join(',\n')};
CREATE TABLE docs (id serial PRIMARY KEY, title text NOT NULL, body text NOT NULL, count integer NOT NULL);
INSERT INTO docs (title, body, count) SELECT ${randomLetters(10)}, ${randomLetters(100)}, 1 + floor(random() * 10000)::int FROM generate_series(1, ${SEEDED_DOCS}) AS row;
COMMIT;
ANALYZE world, fortune, docs;
`;
}

/** The servers a private database runs on: PostgreSQL, or for MongoDB's protocol the host's mongod or FerretDB. */
export const DATABASE_SERVERS = ['postgresql', 'mongod', 'ferretdb'] as const;

/** What the deployment records of its database (never a password). */
export const DatabaseFacts = z.object({
  kind: z.enum(DATABASE_SERVERS),
  /**
   * The server's own version string, e.g. "15.14 (Debian 15.14-0+deb12u1)"; mongod's "7.0.14";
   * FerretDB's module version and the MongoDB version it answers as, "v1.24.2 (MongoDB 7.0.42)".
   */
  version: z.string(),
  port: z.number(),
  name: z.string(),
  /** The user the server connects as; "" for MongoDB's protocol (loopback only, no authentication). */
  user: z.string(),
  /** RECORDED_SETTINGS as the running instance shows them (current_setting); the MongoDB servers' own. */
  settings: z.record(z.string(), z.string()),
});
export type DatabaseFacts = z.infer<typeof DatabaseFacts>;

export type StartReport = { ok: true; port: number; version: string; settings: Record<string, string> } | { ok: false; error: string; log: string[] };

/**
 * The start script's lines: `progress <what>` while it works, then `port <n>`, `version <v>` and
 * `setting <name> <value>` lines and `started`; or `error <why>` with the instance's last `log <line>`s.
 */
export function parseStartReport(text: string): StartReport {
  const lines = text.split(/\r?\n/);
  const log = lines.filter((line) => line.startsWith('log ')).map((line) => line.slice(4));
  const error = lines.find((line) => line.startsWith('error '));
  if (error) return { ok: false, error: error.slice(6).trim(), log };
  const value = (key: string) => lines.find((line) => line.startsWith(`${key} `))?.slice(key.length + 1).trim();
  const port = Number(value('port'));
  const version = value('version');
  if (!lines.includes('started') || !Number.isInteger(port) || !version) return { ok: false, error: 'the database start script did not finish', log };
  const settings: Record<string, string> = {};
  for (const line of lines) {
    const match = /^setting (\S+) (.*)$/.exec(line);
    if (match) settings[match[1]!] = match[2]!;
  }
  return { ok: true, port, version, settings };
}
