// Which host serves the benchmark, to deploy to by default: the server host of the plan being
// drafted in the wizard, else that of the newest session; and the hosts they use as load clients,
// which are never deployed to by default (deploy-target.ts). Null until both are read, so the page
// says when its default is final.

import { useLoaded } from '../../common/use-loaded.ts';
import { clientHostIds, restoreWizard } from '../plans/wizard-draft.ts';
import type { KnownRoles } from './deploy-target.ts';

export function useServerRoles(): KnownRoles | null {
  const { value } = useLoaded(async (api): Promise<KnownRoles> => {
    const wizard = restoreWizard((await api.drafts.get({ key: 'wizard' })).draft);
    const sessions = await api.sessions.list();
    const newest = sessions.find((session) => session.serverHostId !== null);
    const clients = [...clientHostIds(wizard), ...sessions.slice(0, 1).map((session) => session.clientHostId)].filter((id): id is number => typeof id === 'number');
    return { serverHostId: wizard.serverHostId ?? newest?.serverHostId ?? null, clientHostIds: clients };
  });
  return value;
}
