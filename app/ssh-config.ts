// Parsing ~/.ssh/config into host entry candidates (Host, HostName, User, Port, IdentityFile,
// ProxyJump). Pure: the caller reads the file.

import { z } from 'zod';

export const SshConfigCandidate = z.object({
  /** The Host alias, used as the entry name. */
  name: z.string(),
  address: z.string(),
  port: z.number(),
  user: z.string().nullable(),
  identityFile: z.string().nullable(),
  /** Alias or [user@]host[:port] of the jump host, as written. */
  proxyJump: z.string().nullable(),
});
export type SshConfigCandidate = z.infer<typeof SshConfigCandidate>;
