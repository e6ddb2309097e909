// Which connected host the Templates page deploys to until the user picks one: the server host (the
// wizard's, else the newest session's) when it is connected; else a connected host that is not a
// known load client; the first connected host only when every one is a load client.

export interface KnownRoles {
  serverHostId: number | null;
  /** Hosts the wizard or the newest session use as load clients: never the default target. */
  clientHostIds: readonly number[];
}

export function defaultDeployHost<T extends { id: number }>(connected: readonly T[], roles: KnownRoles): T | null {
  return (
    connected.find((host) => host.id === roles.serverHostId) ??
    connected.find((host) => !roles.clientHostIds.includes(host.id)) ??
    connected[0] ??
    null
  );
}
