// Every preset the user can pick: the built-in ones shipped as JSON files in resources/presets/
// (read-only, validated when loaded) and the user's own, stored in SQLite.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeZodError } from '../../../app/common/zod-issues.ts';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { PresetDefinition, PresetFile, userPresetRowId, type Preset } from '../../../app/presets/presets.ts';
import { builtInResourceDir } from '../resources.ts';
import type { PresetsRepository } from './presets-repository.ts';

/** resources/presets of this installation. */
export function builtInPresetsDir(): string | null {
  return builtInResourceDir('presets');
}

export interface LoadedPresets {
  presets: Preset[];
  /** Files that were skipped, with why (shown in the log). */
  problems: string[];
}

export function loadBuiltInPresets(dir: string | null): LoadedPresets {
  if (!dir) return { presets: [], problems: ['the built-in presets folder (resources/presets) was not found'] };
  const presets: Preset[] = [];
  const problems: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
    try {
      const parsed = PresetFile.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
      if (!parsed.success) throw new Error(describeZodError(parsed.error));
      const { id, ...definition } = parsed.data;
      const checked = PresetDefinition.safeParse(definition);
      if (!checked.success) throw new Error(describeZodError(checked.error));
      if (userPresetRowId(id) !== null) throw new Error(`id "${id}" is reserved for user presets`);
      if (presets.some((preset) => preset.id === id || preset.name.toLowerCase() === definition.name.toLowerCase())) {
        throw new Error(`id "${id}" or name "${definition.name}" is used by another built-in preset`);
      }
      presets.push({ ...checked.data, id, builtIn: true, basedOn: null });
    } catch (error) {
      problems.push(`${file}: ${messageOf(error)}`);
    }
  }
  return { presets, problems };
}

export class PresetCatalog {
  readonly #builtIn: Preset[];
  readonly #stored: PresetsRepository;

  constructor(builtIn: Preset[], stored: PresetsRepository) {
    this.#builtIn = builtIn;
    this.#stored = stored;
  }

  list(): Preset[] {
    return [...this.#builtIn, ...this.#stored.list()];
  }

  get(id: string): Preset {
    const rowId = userPresetRowId(id);
    if (rowId !== null) return this.#stored.get(rowId);
    const preset = this.#builtIn.find((candidate) => candidate.id === id);
    if (!preset) throw new ApiError('not_found', `preset ${id} does not exist`);
    return preset;
  }

  /** Creates a user preset, or updates one (`id`); built-in presets are duplicated, never edited. */
  save(definition: PresetDefinition, options: { id?: string | undefined; basedOn?: string | null | undefined } = {}): Preset {
    const clash = this.#builtIn.find((preset) => preset.name.trim().toLowerCase() === definition.name.trim().toLowerCase());
    if (clash) throw new ApiError('conflict', `name: "${clash.name}" is a built-in preset; choose another name`);
    if (options.id === undefined) {
      if (options.basedOn) this.get(options.basedOn);
      return this.#stored.add(definition, options.basedOn ?? null);
    }
    const rowId = userPresetRowId(options.id);
    if (rowId === null) throw new ApiError('conflict', `${this.get(options.id).name} is built in: duplicate it to edit a copy`);
    return this.#stored.update(rowId, definition);
  }

  remove(id: string): boolean {
    const rowId = userPresetRowId(id);
    if (rowId === null) throw new ApiError('conflict', `${this.get(id).name} is built in and cannot be removed`);
    return this.#stored.remove(rowId);
  }
}
