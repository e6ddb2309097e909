// The commands the lab runs, found by absolute path (a root shell's PATH may lack sbin), each with
// the Debian package that provides it; and whether the lab can run on this machine at all.

import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const SSHD = '/usr/sbin/sshd';

/** Each command the lab runs, with the Debian package that provides it. */
const TOOLS = {
  ip: 'iproute2',
  unshare: 'util-linux',
  nsenter: 'util-linux',
  mount: 'mount',
  umount: 'mount',
  'ssh-keygen': 'openssh-client',
  ssh: 'openssh-client',
  sshd: 'openssh-server',
  hostname: 'hostname',
  useradd: 'passwd',
  usermod: 'passwd',
  chpasswd: 'passwd',
  getent: 'libc-bin',
  sudo: 'sudo',
} as const;
type Tool = keyof typeof TOOLS;

const EXTRA_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Absolute path of a tool; root shells do not always have sbin directories in PATH. */
function findTool(name: Tool): string | null {
  if (name === 'sshd') return existsSync(SSHD) ? SSHD : null;
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...EXTRA_PATH];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export function tool(name: Tool): string {
  const found = findTool(name);
  if (!found) throw new Error(`${name} is not installed (apt-get install ${TOOLS[name]})`);
  return found;
}

/** Why the lab cannot run on this machine, or null when it can. */
export function labUnsupportedReason(): string | null {
  if (process.platform !== 'linux') return `the lab needs Linux network namespaces (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'the lab needs root (it creates network namespaces, a bridge and sshd processes)';
  return null;
}

export function assertSupported(): void {
  const reason = labUnsupportedReason();
  if (reason) throw new Error(reason);
  const missing = (Object.keys(TOOLS) as Tool[]).filter((name) => !findTool(name));
  if (missing.length > 0) {
    const packages = [...new Set(missing.map((name) => TOOLS[name]))].join(' ');
    throw new Error(`the lab needs ${missing.join(', ')}: apt-get install ${packages}`);
  }
}
