// The bottleneck banner: which side limited each step (client-bound, server-bound, neither when
// the target was met, or no side named when client and server shared one machine) with the
// evidence under it, and — with several load clients — each
// client that was itself the bottleneck, by name (one saturated client among four is named even
// when the merged load looks fine). One component for the Run page (live), replay and Compare, so
// the verdict app/runs/bottleneck.ts computed reads the same everywhere.

import type { Bottleneck } from '../../../../app/runs/bottleneck.ts';
import { Banner } from '../../common/Banner.tsx';

export interface JudgedStep {
  /** The step's label (Run page, replay) or the session's name (Compare). */
  label: string;
  bottleneck: Bottleneck | null | undefined;
  /** Each load client's own verdict, by host name, when the run had several. */
  clients?: ReadonlyArray<{ name: string; bottleneck: Bottleneck | null }>;
}

function Evidence({ bottleneck }: { bottleneck: Bottleneck }) {
  return (
    <ul>
      {bottleneck.evidence.map((evidence) => (
        <li key={evidence.kind} data-kind={evidence.kind} data-side={evidence.side}>
          {evidence.message}
        </li>
      ))}
    </ul>
  );
}

export function BottleneckBanner({ steps, labelled = steps.length > 1 }: { steps: readonly JudgedStep[]; labelled?: boolean }) {
  const saturatedClients = (step: JudgedStep) => (step.clients ?? []).filter((client): client is { name: string; bottleneck: Bottleneck } => client.bottleneck?.verdict === 'client-bound');
  const judged = steps.filter((step) => !!step.bottleneck || saturatedClients(step).length > 0);
  if (judged.length === 0) return null;
  // A client-bound step means some numbers partly measure the load generator, and on one shared
  // machine they may: that must stand out.
  const clientBound = judged.some((step) => step.bottleneck?.verdict === 'client-bound' || step.bottleneck?.verdict === 'shared-machine' || saturatedClients(step).length > 0);
  return (
    <Banner tone={clientBound ? 'warning' : 'info'} role={clientBound ? 'alert' : 'status'} testId="bottleneck">
      {judged.map((step, index) => (
        <div key={`${index}-${step.label}`} className="bottleneck-step" data-testid="bottleneck-step" data-verdict={step.bottleneck?.verdict ?? ''}>
          {step.bottleneck && (
            <>
              <strong>
                {labelled ? `${step.label}: ` : ''}
                {step.bottleneck.headline}
              </strong>
              <Evidence bottleneck={step.bottleneck} />
            </>
          )}
          {saturatedClients(step).map((client) => (
            <div key={client.name} data-testid="bottleneck-client" data-client={client.name} data-verdict={client.bottleneck.verdict}>
              <strong>
                {labelled && !step.bottleneck ? `${step.label}: ` : ''}
                On {client.name}: {client.bottleneck.headline}
              </strong>
              <Evidence bottleneck={client.bottleneck} />
            </div>
          ))}
        </div>
      ))}
    </Banner>
  );
}
