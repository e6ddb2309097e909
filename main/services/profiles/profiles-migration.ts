// The profiles capability's table, as the store's migration 9 (store/migrations.ts lists it).

export const PROFILES_MIGRATION = {
  version: 9,
  description: 'a CPU profile of the server process per run',
  sql: `
      -- One run's profile: captured (the folded stacks, gzip-compressed, and the capture's facts),
      -- missing (wanted, not taken: the reason says why, e.g. what to install) or off (switched off).
      CREATE TABLE profile (
        run_id        INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
        status        TEXT    NOT NULL CHECK (status IN ('captured', 'missing', 'off')),
        reason        TEXT,
        tool          TEXT,
        runtime       TEXT,
        samples       INTEGER,
        stacks        INTEGER,
        interval_us   INTEGER,
        duration_ms   INTEGER,
        pid           INTEGER,
        stored_bytes  INTEGER,
        folded        BLOB,
        captured_at   TEXT    NOT NULL
      );
    `,
} as const;
