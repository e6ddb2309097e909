// The one rendering of noise findings (what makes results unrepeatable: CPU governor, turbo, load,
// busy processes, swap, client and server on one machine), with each finding's host and evidence.
// The Run page (before starting and on the live run), the wizard's review step and replay use it.

import type { NoiseFinding } from '../../../../app/hosts/host-facts.ts';
import { Banner } from '../../common/Banner.tsx';

const HOST_LABEL: Record<NoiseFinding['host'], string> = { client: 'client', server: 'server', both: 'both hosts' };

export function NoiseFindings(props: {
  /** Null while nothing was read yet. */
  findings: NoiseFinding[] | null;
  title: string;
  checking?: boolean;
  error?: string | null;
  /** Shown when the check found nothing. */
  quiet?: string;
  onRecheck?: () => void;
  testId?: string;
}) {
  const { findings } = props;
  const testId = props.testId ?? 'noise-findings';
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
        {props.title}: checking both hosts…
      </Banner>
    ) : null;
  }
  if (findings.length === 0) {
    return (
      <Banner tone="info" testId={testId} data-state="quiet">
        {props.title}: {props.quiet ?? 'nothing found that makes results unrepeatable.'} {recheck}
      </Banner>
    );
  }
  return (
    <Banner tone="warning" role="alert" testId={testId} data-state="findings">
      <strong>{props.title}</strong> — these make results harder to repeat: {recheck}
      <ul>
        {findings.map((finding) => (
          <li key={`${finding.kind}-${finding.host}-${finding.evidence}`} data-testid="noise-finding" data-kind={finding.kind} data-host={finding.host}>
            <span className="badge">{HOST_LABEL[finding.host]}</span> {finding.message} <span className="muted small mono">{finding.evidence}</span>
          </li>
        ))}
      </ul>
    </Banner>
  );
}
