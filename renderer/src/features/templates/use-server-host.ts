// Which host serves the benchmark, to deploy to by default: the server host of the plan being
// drafted in the wizard, else that of the newest session; null when neither names one.

import { useLoaded } from '../../common/use-loaded.ts';
import { restoreWizard } from '../plans/wizard-draft.ts';

export function useServerHostId(): number | null {
  const { value } = useLoaded(async (api) => {
    const drafted = restoreWizard((await api.plans.draft({})).draft).serverHostId;
    if (drafted !== null) return drafted;
    return (await api.sessions.list()).find((session) => session.serverHostId !== null)?.serverHostId ?? null;
  });
  return value ?? null;
}
