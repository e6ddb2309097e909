// The private database a deployment ran with, as sessions record it and people read it: the facts
// kept in a session's config (`database`, beside `components`) read back safely, and the words the
// Templates card, the session table, Compare and the exports' readers see — kind and version, port,
// and the recorded settings in one compact line, in RECORDED_SETTINGS' order.

import { DatabaseFacts, RECORDED_SETTINGS } from './template-database.ts';

const KIND_NAMES: Record<DatabaseFacts['kind'], string> = { postgresql: 'PostgreSQL', mongod: 'MongoDB', ferretdb: 'FerretDB' };

/** The facts a session's config recorded; null for a session without a database or recorded before it was kept. */
export function recordedDatabaseOf(config: Record<string, unknown>): DatabaseFacts | null {
  const parsed = DatabaseFacts.safeParse(config.database);
  return parsed.success ? parsed.data : null;
}

/** "PostgreSQL 15.14 (Debian 15.14-0+deb12u1)": the kind and the server's own version string. */
export function databaseVersionText(facts: DatabaseFacts): string {
  return `${KIND_NAMES[facts.kind]} ${facts.version}`;
}

/** "shared_buffers 128MB, max_connections 512, …": the recorded settings first in their fixed order, any others after by name. */
export function databaseSettingsText(facts: DatabaseFacts): string {
  const known: readonly string[] = RECORDED_SETTINGS;
  const names = [...known.filter((name) => name in facts.settings), ...Object.keys(facts.settings).filter((name) => !known.includes(name)).sort()];
  return names.length > 0 ? names.map((name) => `${name} ${facts.settings[name]}`).join(', ') : 'no settings recorded';
}

/** One line: "PostgreSQL 15.14 (…) on port 41234 · shared_buffers 128MB, max_connections 512, …". */
export function describeDatabase(facts: DatabaseFacts): string {
  return `${databaseVersionText(facts)} on port ${facts.port} · ${databaseSettingsText(facts)}`;
}

/** The private database a session's config recorded, in one line (describeDatabase); null when it recorded none. */
export function recordedDatabaseLine(config: Record<string, unknown>): string | null {
  const facts = recordedDatabaseOf(config);
  return facts ? describeDatabase(facts) : null;
}
