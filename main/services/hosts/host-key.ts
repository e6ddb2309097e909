// Host key fingerprints (OpenSSH's SHA256 form) and the decision taken before any credential is sent.

import { createHash } from 'node:crypto';

/** `SHA256:<base64 without padding>`, as `ssh-keygen -lf` and OpenSSH's prompt print it. */
export function sha256Fingerprint(publicKeyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
}

export type HostKeyVerdict = 'trusted' | 'unknown' | 'changed';

export function judgeHostKey(pinned: string | null, presented: string): HostKeyVerdict {
  if (pinned === null) return 'unknown';
  return pinned === presented ? 'trusted' : 'changed';
}
