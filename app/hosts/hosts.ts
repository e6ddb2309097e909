// The host entry model: what a user stores about a machine, and the validation of every field.

import { z } from 'zod';
import { hasControlCharacters } from '../common/text.ts';

const HOSTNAME_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const groups = [...groupsOf(halves[0] ?? ''), ...groupsOf(halves[1] ?? '')];
  let width = groups.length;
  const last = groups[groups.length - 1];
  if (last?.includes('.')) {
    if (!IPV4.test(last)) return false;
    groups.pop();
    width += 1; // an embedded IPv4 address fills two groups
  }
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  return halves.length === 2 ? width < 8 : width === 8;
}

function isHostname(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  return labels.every((label) => HOSTNAME_LABEL.test(label));
}

/** Explains why an address is unusable, or returns null when it is a hostname, IPv4 or IPv6. */
export function describeAddressProblem(address: string): string | null {
  if (address.length === 0) return 'is required';
  if (/\s/.test(address)) return 'must not contain spaces or line breaks';
  if (address.includes('@')) return 'must not contain "@": put the user name in the User field';
  if (/^\[.*\]$/.test(address)) return isIpv6(address.slice(1, -1)) ? null : 'is not a valid IPv6 address';
  if (/^[\d.]+$/.test(address)) return IPV4.test(address) ? null : 'is not a valid IPv4 address';
  if (address.includes(':')) return isIpv6(address) ? null : 'is not a valid IPv6 address (put the port in the Port field)';
  return isHostname(address) ? null : 'must be a hostname (letters, digits, "-" and "."), an IPv4 or an IPv6 address';
}

export const AUTH_KINDS = ['agent', 'key', 'password'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

const noControlCharacters = (text: string) => !hasControlCharacters(text);

export const HostFields = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(64, 'must be at most 64 characters')
    .refine(noControlCharacters, 'must not contain line breaks or control characters'),
  address: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = describeAddressProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  port: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 65535')
    .max(65535, 'must be between 1 and 65535'),
  user: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(32, 'must be at most 32 characters')
    .regex(/^[a-z_][a-z0-9_.-]*\$?$/i, 'must start with a letter or "_" and hold only letters, digits, "_", "-" and "."'),
  auth: z.enum(AUTH_KINDS, { error: 'must be one of agent, key, password' }),
  keyPath: z
    .string()
    .trim()
    .max(4096, 'is too long')
    .refine(noControlCharacters, 'must not contain line breaks or control characters')
    .optional(),
  /** Reach this host through another stored host (ProxyJump). */
  jumpHostId: z.number().int().positive('must be a host id').nullable().optional(),
});

function requireKeyPath(host: { auth?: AuthKind; keyPath?: string | undefined }, ctx: z.RefinementCtx): void {
  if (host.auth === 'key' && !host.keyPath) {
    ctx.addIssue({ code: 'custom', path: ['keyPath'], message: 'is required when authenticating with a key file' });
  }
}

/** A new host entry as the user types it. */
export const HostInput = HostFields.strict().superRefine(requireKeyPath);
export type HostInput = z.input<typeof HostInput>;

export const HostId = z.number({ error: 'must be a host id' }).int('must be a host id').positive('must be a host id');

export const HOST_KINDS = ['ssh', 'local'] as const;

/** The name of the one `local` host entry, which Benchlab adds itself. */
export const LOCAL_HOST_NAME = 'This machine';

export const Host = HostFields.extend({
  id: HostId,
  /** `local` is "This machine", driven without SSH. */
  kind: z.enum(HOST_KINDS),
  jumpHostId: z.number().nullable(),
  hostKeyFingerprint: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Host = z.infer<typeof Host>;

/** Field-by-field problems for a form: `{ address: 'must not contain spaces…' }`. */
export function hostFieldErrors(input: unknown): Record<string, string> {
  const parsed = HostInput.safeParse(input);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'host');
    errors[field] ??= issue.message;
  }
  return errors;
}
