// SSH targets for the lab's hosts, with their real pinned fingerprints, for tests of the host layer,
// and whether a lab test runs, skips or (where the lab is required) fails.

import { labLayout, labStatus, labSudoPassword, labUnsupportedReason, labUp, SUDO_USER, type LabInstance, type LabRole } from '../lab/lab.ts';
import type { SshTarget } from '../../main/services/hosts/ssh-transport.ts';
import type { Services } from '../../main/services/services.ts';
import { skipOrFail } from './lab-required.ts';

/**
 * Why lab tests cannot run here, or null. Throws instead when BENCHLAB_REQUIRE_LAB=1 (CI): a lab
 * test there fails rather than skips. `sudoUser`: the test also needs the lab's sudo user.
 */
export function labSkipReason(options: { sudoUser?: boolean } = {}): string | null {
  const sudoMissing = options.sudoUser && labSudoPassword() === null ? 'the lab did not create its sudo user here' : null;
  return skipOrFail(labUnsupportedReason() ?? sudoMissing);
}

/** Ensures the lab instance is up and returns a target per role, keys pinned as a trusting user would have. */
export async function labTargets(instance: LabInstance = 'default'): Promise<Record<LabRole, SshTarget> & { keyPath: string }> {
  await labUp({ instance });
  const status = await labStatus({ instance });
  const layout = labLayout(instance);
  const target = (role: LabRole): SshTarget => ({
    label: `lab-${role}`,
    address: layout.hosts[role].address,
    port: layout.hosts[role].port,
    user: 'root',
    auth: 'key',
    keyPath: layout.keyPath,
    pinnedFingerprint: status.hosts[role].hostKeyFingerprint,
  });
  return { client: target('client'), server: target('server'), keyPath: layout.keyPath };
}

/** Adds a lab host to a back end as the lab's sudo user (password login, its key pinned), connects it with sudo's password, and gives its id. */
export async function connectAsSudoUser(services: Services, target: SshTarget, name: string): Promise<number> {
  const host = services.hosts.add({ name, address: target.address, port: target.port, user: SUDO_USER, auth: 'password' });
  services.hosts.pinKey(host.id, target.pinnedFingerprint!);
  const password = labSudoPassword()!;
  await services.connections.connect(host.id, { password, sudoPassword: password });
  return host.id;
}
