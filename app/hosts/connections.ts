// Live connection state of a host, as the Hosts page and the status events show it.

import { z } from 'zod';

export const CONNECTION_STATES = ['disconnected', 'connecting', 'connected', 'reconnecting', 'failed'] as const;
export type ConnectionStateName = (typeof CONNECTION_STATES)[number];

export const HostConnection = z.object({
  hostId: z.number(),
  state: z.enum(CONNECTION_STATES),
  /** Why the host is not connected, in words a person can act on. */
  message: z.string().nullable(),
  since: z.string(),
  /**
   * Set while a connected host does not answer: what Benchlab runs there fell silent and a command
   * sent over the connection got no answer either. When it went silent; null while it answers.
   * The connection is kept (SSH keepalive decides when it is dead).
   */
  unresponsiveSince: z.string().nullable(),
});
export type HostConnection = z.infer<typeof HostConnection>;

const secret = z.string().max(4096, 'is too long').optional();

/** Secrets for one connection attempt. They live in memory only: never stored, never logged. */
export const ConnectSecrets = z
  .object({
    password: secret,
    passphrase: secret,
    sudoPassword: secret,
  })
  .strict();
export type ConnectSecrets = z.infer<typeof ConnectSecrets>;

/** OpenSSH's SHA256 fingerprint form. */
export const Fingerprint = z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'must be an OpenSSH SHA256 fingerprint');
