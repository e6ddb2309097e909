// Core counts of the hosts picked as load clients, read once each from the hosts' stored system
// information: a client's default weight is its core count, shown where its weight is typed.

import { useEffect, useState } from 'react';
import { useApi } from '../../api-context.tsx';

export function useCoreCounts(hostIds: readonly (number | null)[]): ReadonlyMap<number, number> {
  const api = useApi();
  const [cores, setCores] = useState<ReadonlyMap<number, number>>(new Map());
  const wanted = [...new Set(hostIds.filter((id): id is number => id !== null && !cores.has(id)))].join(',');
  useEffect(() => {
    if (wanted === '') return;
    let cancelled = false;
    for (const id of wanted.split(',').map(Number)) {
      api.hosts.systemInfo({ id }).then(
        (info) => {
          if (!cancelled && info && info.cpuCores > 0) setCores((current) => new Map(current).set(id, info.cpuCores));
        },
        // Unknown cores only leave the weight's hint empty; the back end decides the weight anyway.
        () => undefined,
      );
    }
    return () => {
      cancelled = true;
    };
  }, [api, wanted]);
  return cores;
}
