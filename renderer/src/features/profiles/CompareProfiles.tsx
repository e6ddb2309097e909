// Profiles in Compare: any two captured runs of the compared sessions, chosen as "before" and
// "after", side by side (each its flame graph and top frames) and as one differential flame graph
// of where the time went up or down. Runs without a profile are listed with the reason.

import { useMemo, useState } from 'react';
import type { Comparison } from '../../../../app/sessions/comparison.ts';
import { sessionLabel } from '../../../../app/sessions/comparison-headline.ts';
import { ErrorBanner } from '../../common/Banner.tsx';
import { DiffView } from './DiffView.tsx';
import { ProfileView } from './ProfileView.tsx';
import { entryLabel } from './RunProfiles.tsx';
import { useProfile, useProfileEntries } from './use-profiles.ts';
import { EntryOptions } from '../../common/EntryOptions.tsx';

function RunChoice({ label, value, options, onChange, testId }: { label: string; value: number | null; options: ReadonlyArray<{ runId: number; label: string }>; onChange: (runId: number) => void; testId: string }) {
  return (
    <label>
      {label}{' '}
      <select value={value ?? ''} data-testid={testId} onChange={(event) => onChange(Number(event.target.value))}>
        <EntryOptions entries={options.map((option) => ({ id: option.runId, name: option.label }))} />
      </select>
    </label>
  );
}

export function CompareProfiles({ comparison }: { comparison: Comparison }) {
  const sessionIds = useMemo(() => comparison.sessions.map((session) => session.id), [comparison]);
  const { entries, error } = useProfileEntries(sessionIds);
  // Each run named as the comparison names it: the session's letter and name, and the step.
  const names = useMemo(() => {
    const byRun = new Map<number, string>();
    for (const step of comparison.steps)
      for (const row of step.rows) {
        const session = comparison.sessions[row.session];
        const letter = sessionLabel(comparison, row.session);
        byRun.set(row.runId, `${letter} · ${session?.name ?? ''}${comparison.steps.length > 1 ? ` · ${step.label}` : ''}`);
      }
    return byRun;
  }, [comparison]);
  const captured = useMemo(() => (entries ?? []).filter((entry) => entry.status === 'captured').map((entry) => ({ runId: entry.runId, label: names.get(entry.runId) ?? entryLabel(entry) })), [entries, names]);
  // By default the first captured run of the first session against the first of another session.
  const defaults = useMemo(() => {
    const sessionOf = (runId: number | undefined) => entries?.find((entry) => entry.runId === runId)?.sessionId;
    const first = captured[0];
    const other = captured.find((option) => sessionOf(option.runId) !== sessionOf(first?.runId)) ?? captured[1];
    return { before: first?.runId ?? null, after: other?.runId ?? null };
  }, [captured, entries]);
  const [picked, setPicked] = useState<{ before?: number; after?: number }>({});
  const known = (runId: number | undefined) => (runId !== undefined && captured.some((option) => option.runId === runId) ? runId : undefined);
  const before = known(picked.before) ?? defaults.before;
  const after = known(picked.after) ?? defaults.after;
  const setBefore = (runId: number) => setPicked((current) => ({ ...current, before: runId }));
  const setAfter = (runId: number) => setPicked((current) => ({ ...current, after: runId }));
  const a = useProfile(before);
  const b = useProfile(after);
  const nameOf = (runId: number | null) => captured.find((option) => option.runId === runId)?.label ?? '';
  const notCaptured = (entries ?? []).filter((entry) => entry.status !== 'captured');

  // Nothing until known: sessions from before profiles (or still loading) add no section.
  if (!entries || entries.length === 0) return error ? <ErrorBanner error={error} testId="compare-profiles-error" /> : null;
  return (
    <section data-testid="compare-profiles">
      <h2>Server CPU profiles</h2>
      <ErrorBanner error={error ?? a.error ?? b.error} testId="compare-profiles-error" />
      {notCaptured.map((entry) => (
        <p key={entry.runId} className="hint" data-testid="compare-profiles-missing">
          {names.get(entry.runId) ?? entryLabel(entry)}: {entry.status === 'off' ? 'profiling was off' : `no profile (${entry.reason ?? 'not captured'})`}
        </p>
      ))}
      {captured.length < 2 ? (
        <p className="hint">Two runs with a profile are needed to compare them.</p>
      ) : (
        <>
          <div className="flame-choice">
            <RunChoice label="Before" value={before} options={captured} onChange={setBefore} testId="compare-profiles-before" />
            <RunChoice label="After" value={after} options={captured} onChange={setAfter} testId="compare-profiles-after" />
          </div>
          <div className="flame-pair">
            {a.profile && <ProfileView folded={a.profile.folded} runId={a.profile.runId} runName={nameOf(before)} testId="compare-profile-a" topCount={10} />}
            {b.profile && <ProfileView folded={b.profile.folded} runId={b.profile.runId} runName={nameOf(after)} testId="compare-profile-b" topCount={10} />}
          </div>
          <h3>Differential</h3>
          {a.profile && b.profile && <DiffView before={{ folded: a.profile.folded, name: nameOf(before) }} after={{ folded: b.profile.folded, name: nameOf(after) }} testId="compare-profile-diff" />}
        </>
      )}
    </section>
  );
}
