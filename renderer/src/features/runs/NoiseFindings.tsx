// The one rendering of noise findings (what makes results unrepeatable: CPU governor, turbo, load,
// busy processes, swap, client and server on one machine), with each finding's host (by name, so
// one client among several is named) and evidence, and which hosts were read. One box for every
// reading of the hosts a page has — the pre-flight for the next run and the one stored at a
// session's start — so a finding both made is one entry, each figure saying when it was read.
// The Run page (before starting, and with its session), the wizard's review step and replay use it.

import type { NoiseFinding, SessionHostFacts } from '../../../../app/hosts/host-facts.ts';
import { Banner } from '../../common/Banner.tsx';
import { findingHostLabel, mergeReadings, readAtText, type NoiseReadingInput } from './noise-texts.ts';

/** One reading of the hosts, as its hook gives it. */
export interface NoiseReading {
  /** `next`: the pre-flight, read now for the next run; `start`: stored with the session at its start. */
  when: NoiseReadingInput['when'];
  /** Null while nothing was read yet. */
  findings: NoiseFinding[] | null;
  facts: SessionHostFacts | null;
  /** The hosts that were read, in words (noise-texts.ts checkedHostsText). */
  checked?: string | null;
  checking?: boolean;
  error?: string | null;
  /** Shown when this reading found nothing. */
  quiet?: string;
}

/** When a reading as a whole was read: its latest host. */
function readingTime(reading: NoiseReading): string | null {
  const facts = reading.facts;
  if (!facts) return null;
  return [...facts.clients, ...(facts.server ? [facts.server] : [])].map((host) => host.takenAt).sort().at(-1) ?? null;
}

export function NoiseFindings(props: { title: string; readings: NoiseReading[]; onRecheck?: () => void; testId?: string }) {
  const testId = props.testId ?? 'noise-findings';
  const readings = props.readings;
  const recheck = props.onRecheck && (
    <button type="button" className="link" data-testid={`${testId}-recheck`} disabled={readings.some((reading) => reading.checking)} onClick={props.onRecheck}>
      Check again
    </button>
  );
  const merged = mergeReadings(readings.flatMap((reading) => (reading.findings ? [{ when: reading.when, findings: reading.findings, facts: reading.facts }] : [])));
  const checking = readings.some((reading) => reading.checking);
  const read = readings.filter((reading) => reading.findings !== null && !reading.checking);
  const errors = readings.filter((reading) => reading.error);
  // Which readings the box holds, each with when it was read and which hosts.
  const sources = (
    <>
      {readings.map((reading) =>
        reading.findings !== null && !reading.checking ? (
          <div key={reading.when} className="muted small" data-testid="noise-reading" data-when={reading.when}>
            {readAtText(reading.when, readingTime(reading))}
            {reading.checked ? ` (${reading.checked})` : ''}
            {merged.length > 0 && reading.findings.length === 0 ? `: ${reading.quiet ?? 'nothing found'}` : ''}
          </div>
        ) : null,
      )}
      {errors.map((reading) => (
        <div key={`error-${reading.when}`} className="small" data-testid="noise-reading-error" data-when={reading.when}>
          {readAtText(reading.when, null)}: {reading.error}
        </div>
      ))}
    </>
  );
  if (merged.length === 0) {
    if (checking && read.length === 0) {
      return (
        <Banner tone="info" testId={testId} data-state="checking">
          {props.title}: checking the hosts…
        </Banner>
      );
    }
    if (read.length === 0) {
      return errors.length > 0 ? (
        <Banner tone="warning" testId={testId} data-state="error">
          {props.title}: {errors.map((reading) => reading.error).join('; ')} {recheck}
        </Banner>
      ) : null;
    }
    return (
      <Banner tone="info" testId={testId} data-state="quiet">
        {props.title}: {read.map((reading) => reading.quiet ?? 'nothing found that makes results unrepeatable.').filter((text, i, all) => all.indexOf(text) === i).join(' ')} {recheck}
        {sources}
      </Banner>
    );
  }
  return (
    <Banner tone="warning" role="alert" testId={testId} data-state="findings">
      <strong>{props.title}</strong> — these make results harder to repeat: {recheck}
      {sources}
      <ul>
        {merged.map((finding) => (
          <li key={finding.key} data-testid="noise-finding" data-kind={finding.kind} data-host={finding.host} data-host-name={finding.hostName}>
            <span className="badge">{findingHostLabel(finding)}</span> {finding.reads[0]!.message}
            {finding.reads.map((entry) => (
              <div key={entry.when} className="small" data-testid="finding-read" data-when={entry.when}>
                <span className="muted">{entry.readAt}:</span> <span className="mono">{entry.evidence}</span>
              </div>
            ))}
          </li>
        ))}
      </ul>
    </Banner>
  );
}
