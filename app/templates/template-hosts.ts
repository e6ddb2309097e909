// What the deployer learns about a server host before deploying (read from the probe script's
// output), and the pure decisions on it: does each runtime requirement hold, can a portable Node
// stand in, which of the host's Javas serves a template, what exactly is missing and which
// package-manager command would install it.

import type { Requirement, RuntimeName } from './templates.ts';

export const PACKAGE_MANAGERS = ['apt-get', 'dnf', 'yum', 'apk', 'zypper', 'pacman'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** The portable Node's npm packages exist for these `uname -m` values. */
const PORTABLE_NODE_ARCHS: Record<string, 'x64' | 'arm64'> = { x86_64: 'x64', amd64: 'x64', aarch64: 'arm64', arm64: 'arm64' };

export interface FoundRuntime {
  path: string;
  version: string | null;
}

/**
 * A lookup script's `<program> <absolute path> <version text>` lines (the databases' lookups): each
 * path once, with the first number `version` (one capture group) finds in its text; anything else
 * is ignored.
 */
export function parseLookupLines(text: string, program: string, version: RegExp): Array<{ path: string; version: string }> {
  const found = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const [name, path, ...rest] = line.trim().split(' ');
    const number = name === program && path?.startsWith('/') ? version.exec(rest.join(' '))?.[1] : undefined;
    if (number !== undefined && !found.has(path!)) found.set(path!, number);
  }
  return [...found].map(([path, number]) => ({ path, version: number }));
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
  /** Every Java found: PATH's first, then JAVA_HOME and the usual JVM folders; versions as feature.interim.update. */
  java: FoundRuntime[];
}

/**
 * Reads the probe's `key value…` lines: `home`, `user`, `uid`, `hostname`, `arch`, `tool <name>`,
 * `pm <name>`, `node <path> <version>`, `apache2 <path> <modules dir|-> <version>`, `java <path> <version>`
 * (one line per Java), `end`.
 */
export function parseHostFacts(text: string): HostFacts {
  const facts: HostFacts = { home: '', user: '', uid: -1, hostname: '', arch: '', tools: new Set(), packageManager: null, node: null, apache2: null, java: [] };
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
      case 'java':
        if (rest[0] && !facts.java.some((found) => found.path === rest[0])) facts.java.push({ path: rest[0], version: normalizeJavaVersion(rest[1]) });
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

/** Java's own version strings: "17.0.15", "21", "25.0.3+9-LTS", and the old scheme "1.8.0_392" (Java 8). */
export function normalizeJavaVersion(text: string | undefined): string | null {
  const match = /^"?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:_(\d+))?/.exec(text ?? '');
  if (!match) return null;
  if (match[1] === '1' && match[2] !== undefined) return `${match[2]}.0.${match[4] ?? match[3] ?? '0'}`;
  return `${match[1]}.${match[2] ?? '0'}.${match[3] ?? '0'}`;
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

const PACKAGES: Record<Exclude<RuntimeName, 'java'>, Record<PackageManager, string>> = {
  node: { 'apt-get': 'nodejs', dnf: 'nodejs', yum: 'nodejs', apk: 'nodejs', zypper: 'nodejs', pacman: 'nodejs' },
  apache2: { 'apt-get': 'apache2', dnf: 'httpd', yum: 'httpd', apk: 'apache2', zypper: 'apache2', pacman: 'apache' },
};

/** Java feature versions with long-term support: distributions package these. */
const JAVA_LTS = [17, 21, 25] as const;

/** The headless JRE package for the oldest LTS Java >= minVersion (17 at least: older ones are leaving the distributions). */
function javaPackage(manager: PackageManager, minVersion: number): string {
  const version = JAVA_LTS.find((lts) => lts >= minVersion) ?? minVersion;
  switch (manager) {
    case 'apt-get':
      return `openjdk-${version}-jre-headless`;
    case 'dnf':
    case 'yum':
    case 'zypper':
      return `java-${version}-openjdk-headless`;
    case 'apk':
      return `openjdk${version}-jre-headless`;
    case 'pacman':
      return `jre${version}-openjdk-headless`;
  }
}

/** The non-interactive install command for a runtime with a host's package manager (run as root); `minVersion` picks Java's. */
export function installCommand(runtime: RuntimeName, manager: PackageManager, minVersion = 0): string {
  return installPackageCommand(manager, runtime === 'java' ? javaPackage(manager, minVersion) : PACKAGES[runtime][manager]);
}

/** The non-interactive command that installs one package with a host's package manager (run as root). */
export function installPackageCommand(manager: PackageManager, name: string): string {
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
  /** Node must be provided by Benchlab's portable Node: npm's node-linux-<arch>@<release>, release a major ("24") or an exact version. */
  provisionNode: PortableNodeSpec | null;
  missing: MissingRuntime[];
}

/** A portable Node to upload: the npm package node-linux-<arch> at `release`, a major or an exact version. */
export interface PortableNodeSpec {
  arch: 'x64' | 'arm64';
  release: string;
}

function offer(runtime: RuntimeName, facts: HostFacts, minVersion = 0): InstallOffer | null {
  return facts.packageManager ? { runtime, packageManager: facts.packageManager, command: installCommand(runtime, facts.packageManager, minVersion) } : null;
}

/**
 * The Java to run a template with: the first found (PATH's, as a person typing `java` would get)
 * when it is new enough, otherwise the oldest one that is, so a template runs on the Java closest
 * to what it was written for.
 */
export function pickJava(found: readonly FoundRuntime[], minVersion: number): FoundRuntime | null {
  const usable = found.filter((java) => (majorOf(java.version) ?? 0) >= minVersion);
  if (usable.length === 0) return null;
  if (usable[0] === found[0]) return usable[0]!;
  return [...usable].sort((a, b) => (majorOf(a.version) ?? 0) - (majorOf(b.version) ?? 0))[0]!;
}

/** Checks each requirement against the host; `portableNodeMajor` is the major version Benchlab can upload. */
export function judgeRequirements(requires: readonly Requirement[], facts: HostFacts, portableNodeMajor: number): RequirementVerdict {
  const verdict: RequirementVerdict = { placeholders: {}, provisionNode: null, missing: [] };
  for (const requirement of requires) {
    if (requirement.runtime === 'node' && requirement.version !== undefined) {
      // Exactly this Node, whatever the host has: always Benchlab's upload.
      const arch = portableNodeArch(facts.arch);
      if (arch) verdict.provisionNode = { arch, release: requirement.version };
      else verdict.missing.push({ runtime: 'node', message: `Node.js ${requirement.version} (Benchlab brings it only for x86_64 and aarch64 hosts; this one is ${facts.arch || 'of unknown architecture'})`, install: null });
    } else if (requirement.runtime === 'node') {
      const minVersion = requirement.minVersion ?? 0;
      const major = majorOf(facts.node?.version ?? null);
      if (facts.node && major !== null && major >= minVersion) {
        verdict.placeholders.node = facts.node.path;
        continue;
      }
      const found = facts.node ? ` (found ${facts.node.version ? `v${facts.node.version}` : 'a node that does not say its version'} at ${facts.node.path})` : ' (no node on PATH)';
      const arch = portableNodeArch(facts.arch);
      if (arch && portableNodeMajor >= minVersion) {
        verdict.provisionNode = { arch, release: String(portableNodeMajor) };
        continue;
      }
      const why = arch ? `; Benchlab's portable Node is v${portableNodeMajor}` : `; Benchlab has no portable Node for ${facts.arch || 'this architecture'}`;
      verdict.missing.push({ runtime: 'node', message: `Node.js >= ${minVersion}${found}${why}`, install: offer('node', facts) });
    } else if (requirement.runtime === 'java') {
      const java = pickJava(facts.java, requirement.minVersion);
      if (java) {
        verdict.placeholders.java = java.path;
        continue;
      }
      const found =
        facts.java.length > 0
          ? ` (found ${facts.java.map((other) => `Java ${majorOf(other.version) ?? '?'} at ${other.path}`).join(', ')})`
          : ' (no java on PATH, in JAVA_HOME or in /usr/lib/jvm)';
      verdict.missing.push({ runtime: 'java', message: `Java >= ${requirement.minVersion}${found}`, install: offer('java', facts, requirement.minVersion) });
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
