// The profiles capability's service: reads the stored profiles for the contract (a session's entries,
// one run's folded stacks, its export) and records what each run's capture ended with.

import { ApiError } from '../../../app/common/errors.ts';
import { exportProfile } from '../../../app/profiles/profile-export.ts';
import { profilesReportHtml } from '../../../app/profiles/profile-report.ts';
import type { Comparison } from '../../../app/sessions/comparison.ts';
import type { Profile, ProfileEntry, ProfileExportFile, ProfileExportFormat } from '../../../app/profiles/profiles.ts';
import type { ProfileOutcome, ProfilesRepository } from './profiles-repository.ts';

export interface ProfileServiceOptions {
  repository: ProfilesRepository;
}

export class ProfileService {
  readonly #repository: ProfilesRepository;
  constructor(options: ProfileServiceOptions) {
    this.#repository = options.repository;
  }

  list(sessionId: number): ProfileEntry[] {
    return this.#repository.list(sessionId);
  }

  get(runId: number): Profile {
    const profile = this.#repository.get(runId);
    if (!profile) throw new ApiError('not_found', `Run ${runId} has no captured profile.`);
    return profile;
  }

  export(runId: number, format: ProfileExportFormat): ProfileExportFile {
    return exportProfile(this.get(runId), format, `Benchlab run ${runId}`);
  }

  /** The printed comparison's chapter of the compared runs' profiles ('' when none has an entry). */
  reportChapter(comparison: Comparison): string {
    const entries = comparison.sessions.flatMap((session) => this.#repository.list(session.id));
    return profilesReportHtml(comparison, entries, (runId) => this.#repository.get(runId)?.folded ?? null);
  }

  record(runId: number, outcome: ProfileOutcome): void {
    this.#repository.save(runId, outcome);
  }
}
