// Deployments per host: loaded once, then kept current by `templates.progress` events (the Templates
// page lists them; the Run page offers a ready one as its target).

import type { Deployment } from '../../../app/templates/templates-contract.ts';
import { useKeyedList } from './use-loaded.ts';

export function useDeployments(): ReadonlyMap<number, Deployment> {
  return useKeyedList((api) => api.templates.deployments(), 'templates.progress', (deployment) => deployment.hostId);
}
