// What the deployer learns about a server host before deploying (read from the probe script's
// output), and the pure decisions on it: does each runtime requirement hold, can a portable Node
// stand in, what exactly is missing and which package-manager command would install it.

import type { Requirement, RuntimeName } from './templates.ts';

export const PACKAGE_MANAGERS = ['apt-get', 'dnf', 'yum', 'apk', 'zypper', 'pacman'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** The portable Node's npm packages exist for these `uname -m` values. */
const PORTABLE_NODE_ARCHS: Record<string, 'x64' | 'arm64'> = { x86_64: 'x64', amd64: 'x64', aarch64: 'arm64', arm64: 'arm64' };

export interface FoundRuntime {
  path: string;
  version: string | null;
}

export interface HostFacts {
  home: string;
  user: string;
  uid: number;
  hostname: string;
  /** `uname -m`. */
  arch: string;
  /** Tools found on PATH, by name. */
  tools: Set<string>;
  packageManager: PackageManager | null;
  node: FoundRuntime | null;
  apache2: (FoundRuntime & { modules: string | null }) | null;
}

/**
 * Reads the probe's `key value…` lines: `home`, `user`, `uid`, `hostname`, `arch`, `tool <name>`,
 * `pm <name>`, `node <path> <version>`, `apache2 <path> <modules dir|-> <version>`, `end`.
 */
export function parseHostFacts(text: string): HostFacts {
  const facts: HostFacts = { home: '', user: '', uid: -1, hostname: '', arch: '', tools: new Set(), packageManager: null, node: null, apache2: null };
  let ended = false;
  for (const line of text.split(/\r?\n/)) {
    const [key, ...rest] = line.trim().split(/\s+/);
    const value = rest.join(' ');
    switch (key) {
      case 'home':
        facts.home = value;
        break;
      case 'user':
        facts.user = value;
        break;
      case 'uid':
        facts.uid = /^\d+$/.test(value) ? Number(value) : -1;
        break;
      case 'hostname':
        facts.hostname = value;
        break;
      case 'arch':
        facts.arch = value;
        break;
      case 'tool':
        if (value) facts.tools.add(value);
        break;
      case 'pm':
        if ((PACKAGE_MANAGERS as readonly string[]).includes(value)) facts.packageManager = value as PackageManager;
        break;
      case 'node':
        if (rest[0]) facts.node = { path: rest[0], version: normalizeVersion(rest[1]) };
        break;
      case 'apache2':
        if (rest[0]) facts.apache2 = { path: rest[0], modules: rest[1] && rest[1] !== '-' ? rest[1] : null, version: normalizeVersion(rest[2]) };
        break;
      case 'end':
        ended = true;
        break;
    }
  }
  if (!ended || !facts.home.startsWith('/') || facts.uid < 0) throw new Error('the host probe did not complete (is /bin/sh a POSIX shell?)');
  return facts;
}

function normalizeVersion(text: string | undefined): string | null {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text ?? '');
  return match ? `${match[1]}.${match[2]}.${match[3] ?? '0'}` : null;
}

export function majorOf(version: string | null): number | null {
  const match = /^(\d+)\./.exec(version ?? '');
  return match ? Number(match[1]) : null;
}

/** Benchlab's own folder on a host: root keeps it beside other daemons' state, users in their home. */
export function benchlabRoot(facts: Pick<HostFacts, 'uid' | 'home'>): string {
  return facts.uid === 0 ? '/var/lib/benchlab' : `${facts.home.replace(/\/+$/, '')}/.benchlab`;
}

export function portableNodeArch(unameArch: string): 'x64' | 'arm64' | null {
  return PORTABLE_NODE_ARCHS[unameArch] ?? null;
}

const PACKAGES: Record<RuntimeName, Record<PackageManager, string>> = {
  node: { 'apt-get': 'nodejs', dnf: 'nodejs', yum: 'nodejs', apk: 'nodejs', zypper: 'nodejs', pacman: 'nodejs' },
  apache2: { 'apt-get': 'apache2', dnf: 'httpd', yum: 'httpd', apk: 'apache2', zypper: 'apache2', pacman: 'apache' },
};

/** The non-interactive install command for a runtime with a host's package manager (run as root). */
export function installCommand(runtime: RuntimeName, manager: PackageManager): string {
  const name = PACKAGES[runtime][manager];
  switch (manager) {
    case 'apt-get':
      return `DEBIAN_FRONTEND=noninteractive apt-get install -y ${name}`;
    case 'dnf':
    case 'yum':
      return `${manager} install -y ${name}`;
    case 'apk':
      return `apk add ${name}`;
    case 'zypper':
      return `zypper --non-interactive install ${name}`;
    case 'pacman':
      return `pacman -S --noconfirm ${name}`;
  }
}

export interface InstallOffer {
  runtime: RuntimeName;
  packageManager: PackageManager;
  command: string;
}

export interface MissingRuntime {
  runtime: RuntimeName;
  /** Exactly what is missing, e.g. "Node.js >= 18 (found v16.20.2 at /usr/bin/node)". */
  message: string;
  install: InstallOffer | null;
}

export interface RequirementVerdict {
  /** Values of the runtime placeholders for the requirements the host meets as it is. */
  placeholders: Record<string, string>;
  /** Node must be provided by Benchlab's portable Node (for this npm arch). */
  provisionNode: 'x64' | 'arm64' | null;
  missing: MissingRuntime[];
}

function offer(runtime: RuntimeName, facts: HostFacts): InstallOffer | null {
  return facts.packageManager ? { runtime, packageManager: facts.packageManager, command: installCommand(runtime, facts.packageManager) } : null;
}

/** Checks each requirement against the host; `portableNodeMajor` is the major version Benchlab can upload. */
export function judgeRequirements(requires: readonly Requirement[], facts: HostFacts, portableNodeMajor: number): RequirementVerdict {
  const verdict: RequirementVerdict = { placeholders: {}, provisionNode: null, missing: [] };
  for (const requirement of requires) {
    if (requirement.runtime === 'node') {
      const major = majorOf(facts.node?.version ?? null);
      if (facts.node && major !== null && major >= requirement.minVersion) {
        verdict.placeholders.node = facts.node.path;
        continue;
      }
      const found = facts.node ? ` (found ${facts.node.version ? `v${facts.node.version}` : 'a node that does not say its version'} at ${facts.node.path})` : ' (no node on PATH)';
      const arch = portableNodeArch(facts.arch);
      if (arch && portableNodeMajor >= requirement.minVersion) {
        verdict.provisionNode = arch;
        continue;
      }
      const why = arch ? `; Benchlab's portable Node is v${portableNodeMajor}` : `; Benchlab has no portable Node for ${facts.arch || 'this architecture'}`;
      verdict.missing.push({ runtime: 'node', message: `Node.js >= ${requirement.minVersion}${found}${why}`, install: offer('node', facts) });
    } else {
      const apache = facts.apache2;
      if (apache && apache.modules) {
        verdict.placeholders.apache2 = apache.path;
        verdict.placeholders['apache2.modules'] = apache.modules;
        continue;
      }
      const message = apache
        ? `the Apache modules (mod_mpm_event.so and friends) next to ${apache.path}: none of the usual module folders has them`
        : 'Apache httpd (apache2 or httpd, not found on PATH or in /usr/sbin)';
      verdict.missing.push({ runtime: 'apache2', message, install: offer('apache2', facts) });
    }
  }
  return verdict;
}

/** One sentence for all that is missing, with what would install it. */
export function describeMissing(hostName: string, missing: readonly MissingRuntime[]): string {
  const parts = missing.map((item) => item.message);
  const installs = missing.filter((item) => item.install).map((item) => item.install!.command);
  const how = installs.length > 0 ? ` Benchlab can install it with: ${installs.join('; ')}` : ' No supported package manager was found: install it by hand.';
  return `${hostName} is missing ${parts.join(' and ')}.${how}`;
}
