// The wizard's draft, kept across reloads and restarts under one key of the drafts table. Only a
// JSON object is a draft (the wizard's own shape): anything else stored under the key reads as
// none, and saving no draft clears it.

import type { DraftsRepository } from './drafts-repository.ts';

const WIZARD_DRAFT_KEY = 'wizard';

export type Draft = Record<string, unknown>;

export class WizardDraft {
  readonly #drafts: Pick<DraftsRepository, 'get' | 'save' | 'clear'>;

  constructor(drafts: Pick<DraftsRepository, 'get' | 'save' | 'clear'>) {
    this.#drafts = drafts;
  }

  load(): { draft: Draft | null; savedAt: string | null } {
    const saved = this.#drafts.get(WIZARD_DRAFT_KEY);
    if (!saved || typeof saved.value !== 'object' || saved.value === null || Array.isArray(saved.value)) return { draft: null, savedAt: null };
    return { draft: saved.value as Draft, savedAt: saved.updatedAt };
  }

  save(draft: Draft | null): { savedAt: string | null } {
    if (draft === null) {
      this.#drafts.clear(WIZARD_DRAFT_KEY);
      return { savedAt: null };
    }
    return { savedAt: this.#drafts.save(WIZARD_DRAFT_KEY, draft) };
  }
}
