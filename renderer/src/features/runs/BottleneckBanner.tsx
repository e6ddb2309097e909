// The bottleneck banner: which side limited each step (client-bound, server-bound, or neither
// when the target was met) with the evidence under it. One component for the Run page (live),
// replay and Compare, so the verdict app/runs/bottleneck.ts computed reads the same everywhere.

import type { Bottleneck } from '../../../../app/runs/bottleneck.ts';
import { Banner } from '../../common/Banner.tsx';

export interface JudgedStep {
  /** The step's label (Run page, replay) or the session's name (Compare). */
  label: string;
  bottleneck: Bottleneck | null | undefined;
}

export function BottleneckBanner({ steps, labelled = steps.length > 1 }: { steps: readonly JudgedStep[]; labelled?: boolean }) {
  const judged = steps.filter((step): step is JudgedStep & { bottleneck: Bottleneck } => !!step.bottleneck);
  if (judged.length === 0) return null;
  // A client-bound step means some numbers partly measure the load generator: that must stand out.
  const clientBound = judged.some((step) => step.bottleneck.verdict === 'client-bound');
  return (
    <Banner tone={clientBound ? 'warning' : 'info'} role={clientBound ? 'alert' : 'status'} testId="bottleneck">
      {judged.map((step, index) => (
        <div key={`${index}-${step.label}`} className="bottleneck-step" data-testid="bottleneck-step" data-verdict={step.bottleneck.verdict}>
          <strong>
            {labelled ? `${step.label}: ` : ''}
            {step.bottleneck.headline}
          </strong>
          <ul>
            {step.bottleneck.evidence.map((evidence) => (
              <li key={evidence.kind} data-kind={evidence.kind} data-side={evidence.side}>
                {evidence.message}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Banner>
  );
}
