// The `hosts.*` part of the contract: stored host entries, "This machine", the ~/.ssh/config
// import, connections, host-key pinning (first use, and the explicit replace), system info and
// client→server reachability. Event: `hosts.connection` on every change of a connection's state.

import { z } from 'zod';
import { NoArgs, request } from '../common/contract-kit.ts';
import { ConnectSecrets, Fingerprint, HostConnection } from './connections.ts';
import { Host, HostId, HostInput } from './hosts.ts';
import { SshConfigCandidate } from './ssh-config.ts';
import { Reachability, SystemInfo } from './system-info.ts';

export const hostRequests = {
  'hosts.list': request(NoArgs, z.array(Host)),
  'hosts.add': request(HostInput, Host),
  'hosts.update': request(z.object({ id: HostId, host: HostInput }).strict(), Host),
  'hosts.remove': request(z.object({ id: HostId }).strict(), z.object({ removed: z.boolean() })),
  'hosts.addLocal': request(NoArgs, Host),
  'hosts.importSshConfig': request(
    z.object({ text: z.string().max(512 * 1024, 'is too long').optional() }).strict(),
    z.object({ source: z.string(), candidates: z.array(SshConfigCandidate), warnings: z.array(z.string()) }),
  ),
  'hosts.connect': request(z.object({ id: HostId, secrets: ConnectSecrets.optional() }).strict(), HostConnection),
  'hosts.disconnect': request(z.object({ id: HostId }).strict(), HostConnection),
  'hosts.connections': request(NoArgs, z.array(HostConnection)),
  /** Pins the key of a host that has none pinned yet (first use). */
  'hosts.trustKey': request(z.object({ id: HostId, fingerprint: Fingerprint }).strict(), Host),
  /** The explicit action for a host whose key changed (reinstalled machine). */
  'hosts.replaceKey': request(z.object({ id: HostId, fingerprint: Fingerprint }).strict(), Host),
  /** The stored system info, or a fresh reading when asked to refresh (or none is stored) and the host is connected. */
  'hosts.systemInfo': request(z.object({ id: HostId, refresh: z.boolean().optional() }).strict(), SystemInfo.nullable()),
  'hosts.reachability': request(z.object({ from: HostId, to: HostId }).strict(), Reachability),
} as const;

export const hostEvents = {
  'hosts.connection': HostConnection,
} as const;
