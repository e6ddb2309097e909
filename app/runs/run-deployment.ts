// Which deployment a run loads, for the callers that start one without having deployed it themselves
// (the Run page, "Run again"): the one ready on the chosen server host at the target's port. The
// run service is told, never guesses; with none, the run is labelled `external`.

import type { Deployment } from '../templates/templates-contract.ts';
import { parseTarget } from './load-profile.ts';
import type { RunDeployment } from './runs-contract.ts';

export function deploymentServing(deployments: readonly Deployment[], serverHostId: number | null | undefined, target: string): RunDeployment | undefined {
  const parsed = parseTarget(target);
  if (serverHostId === null || serverHostId === undefined || typeof parsed === 'string') return undefined;
  const serving = deployments.find((deployment) => deployment.hostId === serverHostId && deployment.port === parsed.port && deployment.state === 'ready');
  return serving ? runDeploymentOf(serving) : undefined;
}

/** A deployment as a run is labelled with it. */
export function runDeploymentOf(deployment: Pick<Deployment, 'templateId' | 'variant' | 'knobs' | 'components' | 'database'>): RunDeployment {
  return {
    templateId: deployment.templateId,
    variant: deployment.variant,
    knobs: deployment.knobs,
    ...(deployment.components ? { components: deployment.components } : {}),
    ...(deployment.database ? { database: deployment.database } : {}),
  };
}
