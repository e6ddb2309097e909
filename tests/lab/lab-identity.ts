// Who is who in the lab: its client key, each host's key and the known_hosts naming them, and the
// sudo user it creates once (its password kept in the lab's home, never touching a user it did not create).

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { LAB_HOME, SUDO_PASSWORD_FILE, SUDO_USER, SUDO_USER_MARKER, type LabLayout } from './layout.ts';
import { tool } from './lab-tools.ts';
import { run, tryRun } from './system.ts';

const SUDO_GROUP = 'sudo';

/** OpenSSH's SHA256 fingerprint of a public key line (`ssh-ed25519 AAAA… comment`). */
export function fingerprintOf(publicKeyLine: string): string {
  const blob = publicKeyLine.trim().split(/\s+/)[1];
  if (!blob) throw new Error('not an OpenSSH public key line');
  const digest = createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

export function readFingerprint(publicKeyPath: string): string | null {
  try {
    return fingerprintOf(readFileSync(publicKeyPath, 'utf8'));
  } catch {
    return null;
  }
}

/** `type blob` of a public key file, without the comment. */
function publicKeyBody(publicKeyPath: string): string {
  const [type, blob] = readFileSync(publicKeyPath, 'utf8').trim().split(/\s+/);
  return `${type} ${blob}`;
}

export async function generateKey(path: string, comment: string): Promise<void> {
  rmSync(path, { force: true });
  rmSync(`${path}.pub`, { force: true });
  await run(tool('ssh-keygen'), ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path]);
}

async function ensureKey(path: string, comment: string): Promise<void> {
  if (existsSync(path) && existsSync(`${path}.pub`)) return;
  await generateKey(path, comment);
}

export async function ensureIdentity(layout: LabLayout): Promise<void> {
  mkdirSync(LAB_HOME, { recursive: true, mode: 0o700 });
  mkdirSync(layout.identityDir, { recursive: true, mode: 0o700 });
  await ensureKey(layout.keyPath, `benchlab-lab-${layout.instance}`);
  for (const host of layout.all) await ensureKey(host.hostKey, `${host.hostname}-${layout.instance}`);
}

export function writeKnownHosts(layout: LabLayout): void {
  const lines = layout.all.map((host) => `${host.address} ${publicKeyBody(`${host.hostKey}.pub`)}\n`);
  writeFileSync(layout.knownHostsPath, lines.join(''), { mode: 0o644 });
}

// The sudo user

export async function userExists(name: string): Promise<boolean> {
  return (await tryRun(tool('getent'), ['passwd', name])).code === 0;
}

/** Creates the sudo user the first time and keeps its password in the lab's home; never touches a user the lab did not create. */
export async function ensureSudoUser(log: (line: string) => void): Promise<void> {
  if (!(await userExists(SUDO_USER))) {
    await run(tool('useradd'), ['--create-home', '--shell', '/bin/bash', '--comment', 'Benchlab lab sudo user', SUDO_USER]);
    writeFileSync(SUDO_USER_MARKER, `created by the Benchlab lab on ${new Date().toISOString()}\n`, { mode: 0o600 });
    log(`created user ${SUDO_USER}`);
  }
  if (!existsSync(SUDO_USER_MARKER)) {
    log(`user ${SUDO_USER} exists but was not created by the lab: its password is left alone`);
    return;
  }
  if (!existsSync(SUDO_PASSWORD_FILE)) {
    writeFileSync(SUDO_PASSWORD_FILE, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
  }
  const password = readFileSync(SUDO_PASSWORD_FILE, 'utf8').trim();
  await run(tool('chpasswd'), [], { input: `${SUDO_USER}:${password}\n` });
  await run(tool('usermod'), ['--append', '--groups', SUDO_GROUP, SUDO_USER]);
}

/** The sudo user's password, when the lab created that user. */
export function labSudoPassword(): string | null {
  if (!existsSync(SUDO_USER_MARKER)) return null;
  try {
    return readFileSync(SUDO_PASSWORD_FILE, 'utf8').trim();
  } catch {
    return null;
  }
}
