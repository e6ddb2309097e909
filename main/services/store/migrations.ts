// The store's schema, as an ordered list of migrations. Each runs in one transaction together with
// the PRAGMA user_version bump, so a crash leaves the file at the old or the new version, never between.

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'hosts, sessions, runs, samples, host snapshots, preset changes, events',
    sql: `
      CREATE TABLE host (
        id                    INTEGER PRIMARY KEY,
        name                  TEXT    NOT NULL UNIQUE COLLATE NOCASE,
        kind                  TEXT    NOT NULL DEFAULT 'ssh' CHECK (kind IN ('ssh', 'local')),
        address               TEXT    NOT NULL,
        port                  INTEGER NOT NULL DEFAULT 22 CHECK (port BETWEEN 1 AND 65535),
        username              TEXT    NOT NULL,
        auth_kind             TEXT    NOT NULL CHECK (auth_kind IN ('agent', 'key', 'password')),
        key_path              TEXT,
        jump_host_id          INTEGER REFERENCES host(id) ON DELETE SET NULL,
        host_key_fingerprint  TEXT,
        host_key_pinned_at    TEXT,
        created_at            TEXT    NOT NULL,
        updated_at            TEXT    NOT NULL
      );

      CREATE TABLE session (
        id                 INTEGER PRIMARY KEY,
        name               TEXT NOT NULL,
        notes              TEXT NOT NULL DEFAULT '',
        tags               TEXT NOT NULL DEFAULT '[]',
        client_host_id     INTEGER REFERENCES host(id) ON DELETE SET NULL,
        server_host_id     INTEGER REFERENCES host(id) ON DELETE SET NULL,
        config             TEXT NOT NULL DEFAULT '{}',
        status             TEXT NOT NULL DEFAULT 'draft'
                           CHECK (status IN ('draft', 'running', 'completed', 'failed', 'cancelled', 'interrupted')),
        origin_session_id  INTEGER REFERENCES session(id) ON DELETE SET NULL,
        created_at         TEXT NOT NULL,
        started_at         TEXT,
        ended_at           TEXT
      );
      CREATE INDEX session_created ON session(created_at);

      -- One load step of a session: a template variant under one load profile step.
      CREATE TABLE run (
        id           INTEGER PRIMARY KEY,
        session_id   INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
        ordinal      INTEGER NOT NULL,
        template_id  TEXT    NOT NULL,
        variant      TEXT    NOT NULL,
        knobs        TEXT    NOT NULL DEFAULT '{}',
        step         TEXT    NOT NULL DEFAULT '{}',
        status       TEXT    NOT NULL DEFAULT 'pending',
        started_at   TEXT,
        ended_at     TEXT,
        summary      TEXT,
        histogram    BLOB,
        UNIQUE (session_id, ordinal)
      );

      -- One second of one client's measurements, with the server's at the same second. A rowid
      -- table: rows carry a ~1-2 KB histogram, too large for WITHOUT ROWID to pack well.
      CREATE TABLE sample (
        id              INTEGER PRIMARY KEY,
        run_id          INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
        second          INTEGER NOT NULL,
        client_index    INTEGER NOT NULL DEFAULT 0,
        requests        INTEGER NOT NULL,
        bytes           INTEGER NOT NULL,
        errors          TEXT    NOT NULL DEFAULT '{}',
        status_classes  TEXT    NOT NULL DEFAULT '{}',
        p50_us          INTEGER,
        p90_us          INTEGER,
        p99_us          INTEGER,
        max_us          INTEGER,
        histogram       BLOB,
        client_metrics  TEXT,
        server_metrics  TEXT,
        UNIQUE (run_id, second, client_index)
      );

      CREATE TABLE host_snapshot (
        id          INTEGER PRIMARY KEY,
        host_id     INTEGER NOT NULL REFERENCES host(id) ON DELETE CASCADE,
        session_id  INTEGER REFERENCES session(id) ON DELETE CASCADE,
        taken_at    TEXT NOT NULL,
        info        TEXT NOT NULL
      );
      CREATE INDEX host_snapshot_host ON host_snapshot(host_id, taken_at);

      -- The journal of presets applied to hosts: enough to revert after a crash.
      CREATE TABLE change (
        id           INTEGER PRIMARY KEY,
        host_id      INTEGER NOT NULL REFERENCES host(id) ON DELETE RESTRICT,
        session_id   INTEGER REFERENCES session(id) ON DELETE SET NULL,
        preset_id    TEXT NOT NULL,
        keys         TEXT NOT NULL,
        previous     TEXT NOT NULL,
        applied      TEXT NOT NULL,
        status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'reverted', 'failed')),
        applied_at   TEXT,
        reverted_at  TEXT
      );
      CREATE INDEX change_host ON change(host_id, status);

      CREATE TABLE event (
        id          INTEGER PRIMARY KEY,
        session_id  INTEGER REFERENCES session(id) ON DELETE CASCADE,
        host_id     INTEGER REFERENCES host(id) ON DELETE SET NULL,
        at          TEXT NOT NULL,
        level       TEXT NOT NULL,
        source      TEXT NOT NULL,
        message     TEXT NOT NULL
      );
      CREATE INDEX event_session ON event(session_id, id);
    `,
  },
  {
    version: 2,
    description: 'user presets (duplicated and edited built-in presets)',
    sql: `
      -- A user's own preset; built-in presets are files in resources/presets and never stored.
      CREATE TABLE preset (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        based_on    TEXT,
        definition  TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    description: 'the wizard draft, kept across reloads and restarts',
    sql: `
      -- Work in progress the UI keeps between reloads (the wizard's answers): one JSON value per key.
      CREATE TABLE draft (
        key         TEXT PRIMARY KEY,
        value       TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      );
    `,
  },
  {
    version: 4,
    description: 'the books of every stored second: phase, scheduled, not sent, in flight',
    sql: `
      -- 'drain': the answers still due after a step's measured window; counted, never timed as a second.
      ALTER TABLE sample ADD COLUMN phase TEXT NOT NULL DEFAULT 'measure' CHECK (phase IN ('measure', 'drain'));
      -- Null in rows from before the books were kept: their runs show no books rather than wrong ones.
      ALTER TABLE sample ADD COLUMN scheduled INTEGER;
      ALTER TABLE sample ADD COLUMN not_sent TEXT NOT NULL DEFAULT '{}';
      ALTER TABLE sample ADD COLUMN in_flight INTEGER;
    `,
  },
  {
    version: 5,
    description: 'several processes on one store: who runs a session, and a mark of every change to the sessions',
    sql: `
      -- The process running the session (store/process-owner.ts): another process leaves it alone
      -- while that process lives. Null in rows from before, which no live process owns.
      ALTER TABLE session ADD COLUMN owner TEXT;

      -- A counter per watched part of the store, raised by triggers on every change to it, so a
      -- process learns that another one changed the sessions without reading them all again.
      CREATE TABLE store_change (
        part     TEXT PRIMARY KEY,
        version  INTEGER NOT NULL
      );
      INSERT INTO store_change (part, version) VALUES ('sessions', 0);
      CREATE TRIGGER session_inserted AFTER INSERT ON session BEGIN UPDATE store_change SET version = version + 1 WHERE part = 'sessions'; END;
      CREATE TRIGGER session_updated AFTER UPDATE ON session BEGIN UPDATE store_change SET version = version + 1 WHERE part = 'sessions'; END;
      CREATE TRIGGER session_deleted AFTER DELETE ON session BEGIN UPDATE store_change SET version = version + 1 WHERE part = 'sessions'; END;
      -- A session's runs show in the library (their templates, their count, a step that ended).
      CREATE TRIGGER run_inserted AFTER INSERT ON run BEGIN UPDATE store_change SET version = version + 1 WHERE part = 'sessions'; END;
      CREATE TRIGGER run_updated AFTER UPDATE ON run BEGIN UPDATE store_change SET version = version + 1 WHERE part = 'sessions'; END;
    `,
  },
  {
    version: 6,
    description: 'how long deploys took, for the estimates',
    sql: `
      -- One deploy that became ready: from its start (check, build, upload, start) to ready. The
      -- wizard's estimates go by the recent ones (app/plans/plan-estimate.ts).
      CREATE TABLE deploy_timing (
        id           INTEGER PRIMARY KEY,
        host_id      INTEGER NOT NULL REFERENCES host(id) ON DELETE CASCADE,
        template_id  TEXT    NOT NULL,
        variant      TEXT    NOT NULL,
        ready_ms     INTEGER NOT NULL,
        at           TEXT    NOT NULL
      );
      CREATE INDEX deploy_timing_template ON deploy_timing(template_id, variant, id);
    `,
  },
  {
    version: 7,
    description: 'the request phases of every stored second: connect, waiting, processing',
    sql: `
      -- As ab reports them (app/runs/agent-protocol.ts RequestPhases): the connects established in
      -- the second, and its answers' wait for the first byte and processing, as encoded HDR
      -- histograms; with_connect counts the answers whose request opened its own connection (their
      -- latency includes it). Null in rows from before the phases were measured.
      ALTER TABLE sample ADD COLUMN connect_histogram BLOB;
      ALTER TABLE sample ADD COLUMN waiting_histogram BLOB;
      ALTER TABLE sample ADD COLUMN processing_histogram BLOB;
      ALTER TABLE sample ADD COLUMN with_connect INTEGER;
    `,
  },
  {
    version: 8,
    description: 'preset changes a running plan will revert itself',
    sql: `
      -- A change a plan applied and will revert at its end: which plan (in words) and its process's
      -- owner token (store/process-owner.ts). While that process lives it is not a revert left behind;
      -- the plan clears both at its end, and a crash leaves a dead owner: pending revert again.
      ALTER TABLE change ADD COLUMN held_by TEXT;
      ALTER TABLE change ADD COLUMN owner TEXT;
    `,
  },
  // The profiles capability's table (its reads and writes: main/services/profiles/profiles-repository.ts).
  {
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
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
