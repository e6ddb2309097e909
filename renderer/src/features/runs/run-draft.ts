// The Run page's form as it is kept across navigation and reloads (the 'run' draft): the
// server host, the profile (target included, which is what a deployment chosen above sets), the
// engine and the session name (the load clients are kept by use-client-picks.ts). Restored field by
// field: a field that no longer fits falls back to its default.

import { DEFAULT_ENGINE_CHOICE, EngineChoice } from '../../../../app/runs/engine-choice.ts';
import { LoadProfile } from '../../../../app/runs/load-profile.ts';
import { runSessionName } from '../../../../app/sessions/session-names.ts';
import { DEFAULT_DRAFT, profileOf, restoreProfileDraft, type ProfileDraft } from './profile-draft.ts';

export interface RunDraft {
  profile: ProfileDraft;
  serverHostId: number | null;
  engine: EngineChoice;
  /** As typed; empty: the session takes the proposed name (defaultRunName). */
  name: string;
}

export const DEFAULT_RUN_DRAFT: RunDraft = { profile: DEFAULT_DRAFT, serverHostId: null, engine: DEFAULT_ENGINE_CHOICE, name: '' };

const isHostId = (value: unknown): value is number | null => value === null || (Number.isInteger(value) && (value as number) > 0);

export function restoreRunDraft(saved: unknown): RunDraft {
  const raw = typeof saved === 'object' && saved !== null ? (saved as Record<string, unknown>) : {};
  const engine = EngineChoice.safeParse(raw.engine);
  return {
    profile: restoreProfileDraft(raw.profile),
    serverHostId: isHostId(raw.serverHostId) ? raw.serverHostId : null,
    engine: engine.success ? engine.data : DEFAULT_ENGINE_CHOICE,
    name: typeof raw.name === 'string' ? raw.name : '',
  };
}

/** The name proposed for a session of this form: what it loads and its steps; null while the profile is invalid. */
export function defaultRunName(profile: ProfileDraft): string | null {
  const parsed = LoadProfile.safeParse(profileOf(profile));
  return parsed.success ? runSessionName(parsed.data) : null;
}
