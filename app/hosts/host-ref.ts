// A host reference as a person writes it in a plan file or on the command line: a stored host's
// name, `local`, an ~/.ssh/config alias, or a login `user@host[:port]` (`user@[v6]:port`). Only a
// login can be checked without the store: its user, address and port are held to the host form's
// own rules, so a bad one is refused with its reason before anything is stored or connected.

import { HostFields } from './hosts.ts';

/** `user@host`, `user@host:port`, `user@[v6]:port`. */
const LOGIN_REF = /^([^@\s]+)@(\[[^\]\s]+\]|[^:@\s]+)(?::(\d{1,5}))?$/;

export interface Login {
  user: string;
  address: string;
  port: number;
}

/** `user@host[:port]` split into its parts (port 22 when none is given), or null when ref is not that form. */
export function parseLogin(ref: string): Login | null {
  const login = LOGIN_REF.exec(ref);
  if (!login) return null;
  const [, user, address, portText] = login as unknown as [string, string, string, string | undefined];
  return { user, address, port: portText === undefined ? 22 : Number(portText) };
}

const LoginFields = HostFields.pick({ user: true, address: true, port: true });

/** Why a login reference cannot name a host (`the address "bad_host!" must be a hostname …`), or null (also for a name or alias). */
export function loginRefProblem(ref: string): string | null {
  const login = parseLogin(ref.trim());
  if (!login) return null;
  const checked = LoginFields.safeParse(login);
  if (checked.success) return null;
  return checked.error.issues
    .map((issue) => {
      const field = String(issue.path[0]) as keyof Login;
      return `the ${field === 'user' ? 'user name' : field} "${login[field]}" ${issue.message}`;
    })
    .join('; ');
}
