// User presets: rows of the `preset` table (migration 2), each a validated definition as JSON.
// Built-in presets are files (see main/services/presets/preset-catalog.ts), never rows.

import { ApiError } from '../../../app/common/errors.ts';
import { normaliseDefinition, PresetDefinition, userPresetId, type Preset } from '../../../app/presets/presets.ts';
import type { Db } from '../store/database.ts';
import { parseJsonColumn } from '../store/json-column.ts';

interface PresetRow {
  id: number;
  name: string;
  based_on: string | null;
  definition: string;
}

function toPreset(row: PresetRow): Preset {
  // Stored definitions were valid when written; one that no longer parses is shown empty rather than lost.
  const parsed = PresetDefinition.safeParse(parseJsonColumn<unknown>(row.definition, null));
  const definition = parsed.success ? parsed.data : { name: row.name, description: 'this stored preset no longer validates', limits: [], sysctls: [], network: null };
  return { id: userPresetId(row.id), builtIn: false, basedOn: row.based_on, ...definition, name: row.name };
}

function isUniqueNameViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class PresetsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  list(): Preset[] {
    const rows = this.#db.prepare('SELECT * FROM preset ORDER BY name COLLATE NOCASE').all() as PresetRow[];
    return rows.map(toPreset);
  }

  get(rowId: number): Preset {
    const row = this.#db.prepare('SELECT * FROM preset WHERE id = ?').get(rowId) as PresetRow | undefined;
    if (!row) throw new ApiError('not_found', `preset ${userPresetId(rowId)} does not exist`);
    return toPreset(row);
  }

  add(definition: PresetDefinition, basedOn: string | null, now = new Date()): Preset {
    const clean = normaliseDefinition(definition);
    try {
      const result = this.#db
        .prepare('INSERT INTO preset (name, based_on, definition, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(clean.name, basedOn, JSON.stringify(clean), now.toISOString(), now.toISOString());
      return this.get(Number(result.lastInsertRowid));
    } catch (error) {
      if (isUniqueNameViolation(error)) throw new ApiError('conflict', `name: a preset named "${clean.name}" already exists`);
      throw error;
    }
  }

  update(rowId: number, definition: PresetDefinition, now = new Date()): Preset {
    this.get(rowId);
    const clean = normaliseDefinition(definition);
    try {
      this.#db.prepare('UPDATE preset SET name = ?, definition = ?, updated_at = ? WHERE id = ?').run(clean.name, JSON.stringify(clean), now.toISOString(), rowId);
      return this.get(rowId);
    } catch (error) {
      if (isUniqueNameViolation(error)) throw new ApiError('conflict', `name: a preset named "${clean.name}" already exists`);
      throw error;
    }
  }

  remove(rowId: number): boolean {
    return this.#db.prepare('DELETE FROM preset WHERE id = ?').run(rowId).changes > 0;
  }
}
