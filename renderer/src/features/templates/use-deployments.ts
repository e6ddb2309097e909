// Deployments per host: loaded once, then kept current by `templates.progress` events.

import type { Deployment } from '../../../../app/templates/templates-contract.ts';
import { useKeyedList } from '../../common/use-loaded.ts';

export function useDeployments(): ReadonlyMap<number, Deployment> {
  return useKeyedList((api) => api.templates.deployments(), 'templates.progress', (deployment) => deployment.hostId);
}
