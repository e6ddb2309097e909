// Deployments per host: loaded once, then kept current by `templates.progress` events.

import { useEffect, useState } from 'react';
import type { Deployment } from '../../../../app/templates/templates-contract.ts';
import { useApi, useConnection } from '../../api-context.tsx';

export function useDeployments(): Map<number, Deployment> {
  const api = useApi();
  const link = useConnection();
  const [deployments, setDeployments] = useState<Map<number, Deployment>>(new Map());

  useEffect(() => {
    if (link !== 'connected') return;
    const unsubscribe = api.subscribe('templates.progress', (deployment) =>
      setDeployments((current) => new Map(current).set(deployment.hostId, deployment)),
    );
    api.templates.deployments().then(
      (list) =>
        setDeployments((current) => {
          const next = new Map(current);
          for (const deployment of list) if (!next.has(deployment.hostId)) next.set(deployment.hostId, deployment);
          return next;
        }),
      () => undefined,
    );
    return unsubscribe;
  }, [api, link]);

  return deployments;
}
