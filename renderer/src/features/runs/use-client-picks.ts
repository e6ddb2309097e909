// The Run page's load clients, remembered: kept in localStorage as they change, so leaving the page
// (or reloading it) and coming back shows the same clients and weights.

import { useCallback, useState } from 'react';
import { restoreClientPicks, type ClientPick } from './client-picks.ts';

const KEY = 'benchlab.run.clients';

function remembered(): ClientPick[] {
  try {
    return restoreClientPicks(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
  } catch {
    return restoreClientPicks(null);
  }
}

export function useClientPicks(): [ClientPick[], (picks: ClientPick[]) => void] {
  const [picks, setPicks] = useState(remembered);
  const update = useCallback((next: ClientPick[]) => {
    setPicks(next);
    localStorage.setItem(KEY, JSON.stringify(next));
  }, []);
  return [picks, update];
}
