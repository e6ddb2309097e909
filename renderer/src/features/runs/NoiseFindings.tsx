// The one rendering of noise findings (what makes results unrepeatable: CPU governor, turbo, load,
// busy processes, swap, client and server on one machine), with each finding's host (by name, so
// one client among several is named) and evidence, and which hosts were read.
// The Run page (before starting and on the live run), the wizard's review step and replay use it.

import type { NoiseFinding } from '../../../../app/hosts/host-facts.ts';
import { Banner } from '../../common/Banner.tsx';
import { findingHostLabel } from './noise-texts.ts';

export function NoiseFindings(props: {
  /** Null while nothing was read yet. */
  findings: NoiseFinding[] | null;
  title: string;
  /** The hosts that were read, in words (noise-texts.ts checkedHostsText); said beside the title. */
  checked?: string | null;
  checking?: boolean;
  error?: string | null;
  /** Shown when the check found nothing. */
  quiet?: string;
  onRecheck?: () => void;
  testId?: string;
}) {
  const { findings } = props;
  const testId = props.testId ?? 'noise-findings';
  const checked = props.checked ? <span className="muted small"> ({props.checked})</span> : null;
  const recheck = props.onRecheck && (
    <button type="button" className="link" data-testid={`${testId}-recheck`} disabled={props.checking} onClick={props.onRecheck}>
      Check again
    </button>
  );
  if (props.error) {
    return (
      <Banner tone="warning" testId={testId} data-state="error">
        {props.title}: {props.error} {recheck}
      </Banner>
    );
  }
  if (findings === null || props.checking) {
    return props.checking ? (
      <Banner tone="info" testId={testId} data-state="checking">
        {props.title}: checking the hosts…
      </Banner>
    ) : null;
  }
  if (findings.length === 0) {
    return (
      <Banner tone="info" testId={testId} data-state="quiet">
        {props.title}
        {checked}: {props.quiet ?? 'nothing found that makes results unrepeatable.'} {recheck}
      </Banner>
    );
  }
  return (
    <Banner tone="warning" role="alert" testId={testId} data-state="findings">
      <strong>{props.title}</strong>
      {checked} — these make results harder to repeat: {recheck}
      <ul>
        {findings.map((finding) => (
          <li key={`${finding.kind}-${finding.host}-${finding.hostName ?? ''}-${finding.evidence}`} data-testid="noise-finding" data-kind={finding.kind} data-host={finding.host} data-host-name={finding.hostName}>
            <span className="badge">{findingHostLabel(finding)}</span> {finding.message} <span className="muted small mono">{finding.evidence}</span>
          </li>
        ))}
      </ul>
    </Banner>
  );
}
