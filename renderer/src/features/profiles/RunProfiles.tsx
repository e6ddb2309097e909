// The CPU profiles of one session's runs, in its replay: each run's line says captured (with its
// tool and samples), missing (and why: often what to install on the host) or off; the chosen
// captured run opens as a flame graph with its top frames.

import { useState } from 'react';
import type { ProfileEntry } from '../../../../app/profiles/profiles.ts';
import { ErrorBanner } from '../../common/Banner.tsx';
import { ProfileView } from './ProfileView.tsx';
import { useProfile, useProfileEntries } from './use-profiles.ts';

export function entryLabel(entry: ProfileEntry, stepLabel?: string): string {
  const variant = entry.variant && entry.variant !== 'default' ? ` (${entry.variant})` : '';
  return `${stepLabel ?? `run ${entry.ordinal}`} · ${entry.templateId}${variant}`;
}

function statusText(entry: ProfileEntry): string {
  if (entry.status === 'captured') return `${entry.tool ?? 'profile'}, ${(entry.samples ?? 0).toLocaleString('en-US')} samples`;
  if (entry.status === 'off') return 'profiling was off';
  return `no profile: ${entry.reason ?? 'not captured'}`;
}

export function RunProfiles({ sessionId }: { sessionId: number }) {
  const { entries, error } = useProfileEntries([sessionId]);
  const [picked, setChosen] = useState<number | null>(null);
  // Until one is picked, the first captured run.
  const chosen = picked ?? entries?.find((entry) => entry.status === 'captured')?.runId ?? null;
  const { profile, error: loadError } = useProfile(chosen);
  const chosenEntry = entries?.find((entry) => entry.runId === chosen);
  if (!entries || entries.length === 0) return error ? <ErrorBanner error={error} testId="run-profiles-error" /> : null;
  return (
    <section className="run-profiles" data-testid="run-profiles">
      <h3>Server CPU profile</h3>
      <ErrorBanner error={error ?? loadError} testId="run-profiles-error" />
      <ul className="profile-list">
        {entries.map((entry) => (
          <li key={entry.runId} data-testid="run-profiles-entry" data-run={entry.runId} data-status={entry.status}>
            {entry.status === 'captured' ? (
              <label>
                <input type="radio" name={`profile-${sessionId}`} checked={chosen === entry.runId} data-testid="run-profiles-choose" onChange={() => setChosen(entry.runId)} /> {entryLabel(entry)}
              </label>
            ) : (
              <span className="muted">{entryLabel(entry)}</span>
            )}{' '}
            <span className="muted small" data-testid="run-profiles-status">
              {statusText(entry)}
            </span>
          </li>
        ))}
      </ul>
      {profile && chosenEntry && <ProfileView folded={profile.folded} runId={profile.runId} runName={entryLabel(chosenEntry)} testId="run-profile" />}
    </section>
  );
}
