// The database part of Compare's host diff: the private database each session's deployment ran
// with (as its config recorded it), as two server rows — kind and version, and the recorded settings
// — flagged where they differ, with a warning then, since a different PostgreSQL or other settings
// change what the database endpoints measure. Sessions that recorded none show "not recorded"; with
// no database in any session there are no rows at all.

import type { DatabaseFacts } from '../templates/template-database.ts';
import { databaseSettingsText, databaseVersionText } from '../templates/recorded-database.ts';
import type { HostDiff, HostDiffRow } from './host-diff.ts';

const FACTS = [
  { label: 'database', part: 'version', read: databaseVersionText },
  { label: 'database settings', part: 'settings', read: databaseSettingsText },
] as const;

/** `databases[i]` is session i's recorded database, or null when it recorded none. */
export function diffDatabases(databases: ReadonlyArray<DatabaseFacts | null>): HostDiff {
  if (databases.every((facts) => facts === null)) return { rows: [], warnings: [] };
  const rows: HostDiffRow[] = FACTS.map(({ label, read }) => {
    const values = databases.map((facts) => (facts ? read(facts) : null));
    const known = values.filter((value): value is string => value !== null);
    return { role: 'server', label, values, differs: new Set(known).size > 1 };
  });
  const differing = FACTS.filter((_, index) => rows[index]!.differs).map(({ part }) => part);
  const warnings = differing.length > 0 ? [`The server databases differ in ${differing.join(' and ')}: the database endpoints' figures are not from the same database set-up.`] : [];
  return { rows, warnings };
}
