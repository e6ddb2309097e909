// The UI's form drafts, kept across reloads and restarts under one key each in the drafts table: the
// wizard's answers ('wizard') and the Run page's form ('run'). Only a JSON object is a draft (the
// form's own shape): anything else stored under the key reads as none, and saving no draft clears it.

import type { Draft, DraftKey } from '../../../app/drafts/drafts-contract.ts';
import type { DraftsRepository } from './drafts-repository.ts';

export class FormDrafts {
  readonly #drafts: Pick<DraftsRepository, 'get' | 'save' | 'clear'>;

  constructor(drafts: Pick<DraftsRepository, 'get' | 'save' | 'clear'>) {
    this.#drafts = drafts;
  }

  load(key: DraftKey): { draft: Draft | null; savedAt: string | null } {
    const saved = this.#drafts.get(key);
    if (!saved || typeof saved.value !== 'object' || saved.value === null || Array.isArray(saved.value)) return { draft: null, savedAt: null };
    return { draft: saved.value as Draft, savedAt: saved.updatedAt };
  }

  save(key: DraftKey, draft: Draft | null): { savedAt: string | null } {
    if (draft === null) {
      this.#drafts.clear(key);
      return { savedAt: null };
    }
    return { savedAt: this.#drafts.save(key, draft) };
  }
}
