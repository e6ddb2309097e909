// The private MongoDB-protocol database a template's database knob set to `mongo` asks for, as
// pure decisions: the host's own mongod when it has one (the lookup script's lines read, the
// newest picked), else FerretDB (v1 on its SQLite backend, the one static binary Benchlab builds
// from agent/ferretdb and uploads), the URL the server gets, and the settings recorded for each.

import { parseLookupLines } from './template-hosts.ts';

export const FERRETDB_ARCH = 'amd64';

/** The binary's name in out/ferretdb (and the packaged app's ferretdb folder). */
export function ferretdbFileName(): string {
  return `benchlab-ferretdb-linux-${FERRETDB_ARCH}`;
}

/** `uname -m` of the hosts FerretDB's binary runs on. */
export function runsFerretdb(unameArch: string): boolean {
  return unameArch === 'x86_64' || unameArch === 'amd64';
}

export interface FoundMongod {
  /** The mongod program. */
  path: string;
  /** `mongod --version`'s number, e.g. "7.0.14". */
  version: string;
}

/** The lookup's `mongod <path> <version line>` lines; anything else is ignored. */
export function parseFoundMongod(text: string): FoundMongod[] {
  return parseLookupLines(text, 'mongod', /(\d+\.\d+(?:\.\d+)?)/);
}

function versionKey(version: string): number[] {
  return version.split('.').map(Number);
}

/** The newest mongod found, or null. */
export function pickMongod(found: readonly FoundMongod[]): FoundMongod | null {
  return (
    [...found].sort((a, b) => {
      const [x, y] = [versionKey(a.version), versionKey(b.version)];
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
      return 0;
    })[0] ?? null
  );
}

/** The database every private MongoDB-protocol instance serves; no user (loopback only, no auth). */
export const MONGO_DATABASE_NAME = 'benchlab';

/** `mongodb://127.0.0.1:PORT/benchlab`, the form {db.url} takes with the database `mongo`. */
export function mongoUrl(port: number): string {
  return `mongodb://127.0.0.1:${port}/${MONGO_DATABASE_NAME}`;
}

/** The SQLite pragmas FerretDB opens its databases with (its defaults; none set by Benchlab). */
export const FERRETDB_SQLITE_PRAGMAS = 'busy_timeout(10000), journal_mode(wal), auto_vacuum(none)';

/**
 * What Benchlab sets on each, recorded beside what the server reports (its storage engine and,
 * for mongod, WiredTiger's cache): loopback only, no authentication, a data folder of its own.
 */
export function mongoSettings(server: 'mongod' | 'ferretdb'): Record<string, string> {
  return server === 'ferretdb'
    ? { backend: 'sqlite', sqlitePragmas: FERRETDB_SQLITE_PRAGMAS, bindIp: '127.0.0.1', auth: 'off' }
    : { bindIp: '127.0.0.1', auth: 'off' };
}
