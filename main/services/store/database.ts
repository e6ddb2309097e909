// Opens the one SQLite file Benchlab keeps: WAL, foreign keys, migrations by PRAGMA user_version.
// A file from a newer Benchlab is refused untouched; a file that is not a readable database is
// renamed aside with a timestamp (never deleted) and reported as a notice. The file and its
// -wal/-shm are the owner's alone (0600), whatever the umask.

import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataDir } from '../data-dir.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.ts';
import { messageOf } from '../../../app/common/errors.ts';

export type Db = Database.Database;

export const DATABASE_FILE_NAME = 'benchlab.db';

export class NewerSchemaError extends Error {
  readonly fileVersion: number;
  constructor(file: string, fileVersion: number, knownVersion: number) {
    super(
      `The data file ${file} was written by a newer Benchlab (schema version ${fileVersion}; this Benchlab knows up to ${knownVersion}). ` +
        'It was left untouched. Update Benchlab, or set BENCHLAB_DATA_DIR to another folder.',
    );
    this.name = 'NewerSchemaError';
    this.fileVersion = fileVersion;
  }
}

export interface OpenedDatabase {
  db: Db;
  file: string;
  /** Messages the user must see, e.g. that a corrupt file was set aside. */
  notices: string[];
}

const CORRUPTION_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CORRUPTION_CODES.has(code);
}

function timestampForFileName(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** Moves a corrupt database (and its WAL/SHM companions) aside. Returns the new main file path. */
function setAside(file: string, now: Date): string {
  const target = `${file}.corrupt-${timestampForFileName(now)}`;
  renameSync(file, target);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  }
  return target;
}

const OWNER_ONLY = 0o600;

/**
 * Creates the file 0600 before SQLite opens it and tightens an existing one (and its companions,
 * from a Benchlab that did not do this): on Unix SQLite gives the -wal and -shm it creates the main
 * file's mode, so they follow.
 */
function restrictToOwner(file: string): void {
  closeSync(openSync(file, 'a', OWNER_ONLY));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, OWNER_ONLY);
  }
}

function configure(db: Db): void {
  db.pragma('journal_mode = WAL');
  // FULL: the journal of host changes and session rows must survive a power cut; samples are
  // written in batched transactions, so the fsync cost is paid per batch, not per row.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Looks at the file's 100-byte header without opening it through SQLite, whose close() would
 * checkpoint or delete a -wal file beside it. Returns null for an empty or absent file.
 */
function readHeader(file: string): { isSqlite: boolean; userVersion: number } | null {
  if (!existsSync(file) || statSync(file).size === 0) return null;
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    const read = readSync(fd, header, 0, 100, 0);
    if (read < 100 || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) return { isSqlite: false, userVersion: 0 };
  } finally {
    closeSync(fd);
  }
  return { isSqlite: true, userVersion: header.readUInt32BE(60) };
}

/** Reads the schema version; throws SQLITE_NOTADB/SQLITE_CORRUPT when the file is not a database. */
function probe(db: Db): number {
  db.prepare('SELECT count(*) FROM sqlite_master').get();
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  let version = db.pragma('user_version', { simple: true }) as number;
  for (const migration of migrations) {
    if (migration.version <= version) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
    version = migration.version;
  }
  return version;
}

export function openDatabase(dataDir: string, options: { now?: () => Date } = {}): OpenedDatabase {
  const now = options.now ?? (() => new Date());
  ensureDataDir(dataDir);
  const file = join(dataDir, DATABASE_FILE_NAME);
  const notices: string[] = [];

  const setAsideWithNotice = (reason: string) => {
    const movedTo = setAside(file, now());
    notices.push(`The data file ${file} could not be read as a database (${reason}). It was kept as ${movedTo} and a new, empty data file was started.`);
  };

  // Decide from the raw header first, so a foreign or newer file (and its -wal) is never opened.
  const header = readHeader(file);
  if (header && !header.isSqlite) setAsideWithNotice('it is not an SQLite file');
  else if (header && header.userVersion > LATEST_SCHEMA_VERSION) {
    throw new NewerSchemaError(file, header.userVersion, LATEST_SCHEMA_VERSION);
  }

  let db: Db | undefined;
  let version: number;
  try {
    restrictToOwner(file);
    db = new Database(file);
    version = probe(db);
  } catch (error) {
    db?.close();
    if (!isCorruption(error)) throw error;
    setAsideWithNotice(messageOf(error));
    restrictToOwner(file);
    db = new Database(file);
    version = probe(db);
  }

  if (version > LATEST_SCHEMA_VERSION) {
    db.close();
    throw new NewerSchemaError(file, version, LATEST_SCHEMA_VERSION);
  }
  configure(db);
  migrate(db);
  return { db, file, notices };
}
