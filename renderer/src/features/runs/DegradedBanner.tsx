// Steps that lost a load client (it failed, dropped its link or died) or their server (stopped or
// replaced under the run): which, when, why, and how many of its seconds the step's result lacks —
// the numbers of such a step are not the whole load, or not of one server.

import type { LiveStep } from '../../../../app/runs/runs.ts';
import { Banner } from '../../common/Banner.tsx';

export function DegradedBanner({ steps }: { steps: readonly LiveStep[] }) {
  const degraded = steps.filter((step) => step.degraded);
  if (degraded.length === 0) return null;
  return (
    <Banner tone="warning" role="alert" testId="run-degraded">
      {degraded.map((step) => {
        const lost = step.degraded!;
        if (lost.lost === 'server') {
          return (
            <div key={step.index} data-testid="run-degraded-step" data-server={lost.hostName}>
              <strong>
                {steps.length > 1 ? `${step.label}: ` : ''}degraded — the server on {lost.hostName} changed at {lost.atS.toFixed(1)} s
              </strong>{' '}
              ({lost.message}); this step's results are of the server it started with, {lost.lostSeconds === 1 ? 'its last 1 second' : `its last ${lost.lostSeconds} seconds`} never measured.
            </div>
          );
        }
        return (
          <div key={step.index} data-testid="run-degraded-step" data-client={lost.hostName}>
            <strong>
              {steps.length > 1 ? `${step.label}: ` : ''}degraded — {lost.hostName} was lost at {lost.atS.toFixed(1)} s
            </strong>{' '}
            ({lost.message}); {lost.lostSeconds === 1 ? 'its 1 second after that is' : `its ${lost.lostSeconds} seconds after that are`} missing, so this step's results lack that client's part.
          </div>
        );
      })}
    </Banner>
  );
}
