// The lab's fixed layout: namespace, link and host names, addresses, and every file path, per lab
// instance. Pure data, so `up`, `down` and `status` agree on what belongs to the lab even when the
// state file is gone.

import { join } from 'node:path';

export const LAB_ROLES = ['client', 'server'] as const;
export type LabRole = (typeof LAB_ROLES)[number];

/**
 * Instances let the lab's own test build and tear down a lab of its own while the default lab
 * keeps serving other tests. Interface names are capped at 15 characters, hence short prefixes.
 */
const INSTANCES = {
  default: { prefix: 'bl-', thirdOctet: 0 },
  selftest: { prefix: 'blt-', thirdOctet: 1 },
  // For tests that pull links, and for tests that change host keys: each its own, so they never
  // disturb the default lab or each other when test files run in parallel.
  disruptive: { prefix: 'bld-', thirdOctet: 2 },
  rekey: { prefix: 'blk-', thirdOctet: 3 },
  // For the load engine's tests that pull the client's link mid-run.
  loadlink: { prefix: 'bll-', thirdOctet: 4 },
  // For the plan runner's tests and the wizard's end-to-end test: they apply presets and deploy
  // templates, so each has hosts of its own that no other test file touches meanwhile.
  plans: { prefix: 'blp-', thirdOctet: 5 },
  wizard: { prefix: 'blw-', thirdOctet: 6 },
  // The accounting checks of the load engine (connections closed under requests, open-model pools).
  engine: { prefix: 'ble-', thirdOctet: 7 },
  // The five seed studies, each against the templates its seed used.
  studies: { prefix: 'bls-', thirdOctet: 8 },
  // Session snapshots and the noise pre-flight.
  hostfacts: { prefix: 'blf-', thirdOctet: 9 },
  // The bottleneck verdict against an overloaded server (it deploys a template of its own).
  verdict: { prefix: 'blv-', thirdOctet: 10 },
  // `benchlab run` end to end: a real CLI process applying a preset, deploying and reverting.
  cli: { prefix: 'blc-', thirdOctet: 11 },
  // Faults named as they happen: a client link pulled and a server sampler killed mid-run, on hosts
  // of their own so the pulled link disturbs no other test.
  faults: { prefix: 'blx-', thirdOctet: 12 },
  // The soak (npm run soak and its short version in npm test): kills, pulled links and a full disk
  // on hosts no other test touches meanwhile.
  soak: { prefix: 'blq-', thirdOctet: 13 },
  // Preset reverts that must restore mode, owner and group: its files get odd modes and a setgid
  // directory, which no other test should meet.
  revert: { prefix: 'blr-', thirdOctet: 14 },
  // A whole session on each load engine (native and Node) against a deployed template.
  engines: { prefix: 'bln-', thirdOctet: 15 },
} as const;

export type LabInstance = keyof typeof INSTANCES;
export const LAB_INSTANCES = Object.keys(INSTANCES) as LabInstance[];

export function isLabInstance(name: string): name is LabInstance {
  return Object.hasOwn(INSTANCES, name);
}

/** Runtime state (pids, logs, private /etc, sshd configs): rebuilt by every `up`, removed by `down`. */
export const LAB_RUN_ROOT = '/run/benchlab-lab';
/** Identity (Benchlab's key, host keys, the sudo user's password): kept across `down`, so pinned host keys stay valid. */
export const LAB_HOME = '/var/lib/benchlab-lab';

export const SUDO_USER = 'benchlab';
export const SUDO_PASSWORD_FILE = join(LAB_HOME, 'benchlab-password');
/** Present only when the lab created the sudo user, so the lab never resets a password it does not own. */
export const SUDO_USER_MARKER = join(LAB_HOME, 'benchlab-user-created-by-lab');

const HOSTNAMES: Record<LabRole, string> = { client: 'bl-client', server: 'bl-server' };
const HOST_OCTETS: Record<LabRole, number> = { client: 2, server: 3 };
/** Names under which `--register` stores the hosts in Benchlab. */
export const REGISTERED_NAMES: Record<LabRole, string> = { client: 'lab-client', server: 'lab-server' };

/**
 * Machine paths each lab host sees replaced by a lab-owned copy (inside its own mount namespace).
 * /var/lib/benchlab is where Benchlab keeps its restore record on a host.
 */
export const PRIVATE_PATHS = ['/etc/security/limits.d', '/etc/security/limits.conf', '/etc/sysctl.d', '/etc/hosts', '/var/lib/benchlab', '/root'] as const;
export type PrivatePath = (typeof PRIVATE_PATHS)[number];

export interface LabHostLayout {
  role: LabRole;
  namespace: string;
  hostname: string;
  address: string;
  port: number;
  /** The root-namespace end of the host's veth pair, enslaved to the bridge. */
  vethRoot: string;
  /** The name of the host's interface inside its namespace. */
  vethInside: string;
  dir: string;
  sshdConfig: string;
  pidFile: string;
  logFile: string;
  hostKey: string;
  /** Lab-owned file or directory bind-mounted over each private path. */
  privateCopies: Record<PrivatePath, string>;
}

export interface LabLayout {
  instance: LabInstance;
  bridge: string;
  bridgeAddress: string;
  prefixLength: number;
  subnet: string;
  runDir: string;
  identityDir: string;
  statePath: string;
  lockPath: string;
  keyPath: string;
  publicKeyPath: string;
  knownHostsPath: string;
  authorizedKeysDir: string;
  hosts: Record<LabRole, LabHostLayout>;
}

export function labLayout(instance: LabInstance = 'default'): LabLayout {
  const { prefix, thirdOctet } = INSTANCES[instance];
  const net = `10.231.${thirdOctet}`;
  const runDir = join(LAB_RUN_ROOT, instance);
  const identityDir = join(LAB_HOME, instance);

  const host = (role: LabRole): LabHostLayout => {
    const dir = join(runDir, role);
    return {
      role,
      namespace: `${prefix}${role}`,
      hostname: HOSTNAMES[role],
      address: `${net}.${HOST_OCTETS[role]}`,
      port: 22,
      vethRoot: `${prefix}${role}-v`,
      vethInside: 'eth0',
      dir,
      sshdConfig: join(dir, 'sshd_config'),
      pidFile: join(dir, 'sshd.pid'),
      logFile: join(dir, 'sshd.log'),
      hostKey: join(identityDir, `${role}_host_ed25519_key`),
      privateCopies: {
        '/etc/security/limits.d': join(dir, 'etc/security/limits.d'),
        '/etc/security/limits.conf': join(dir, 'etc/security/limits.conf'),
        '/etc/sysctl.d': join(dir, 'etc/sysctl.d'),
        '/etc/hosts': join(dir, 'etc/hosts'),
        '/var/lib/benchlab': join(dir, 'var/lib/benchlab'),
        // root's own home per host, from /etc/skel: a host is a fresh machine, and the build
        // machine's /root/.bashrc (pyenv init, with a lock that can stall every login) stays out.
        '/root': join(dir, 'root'),
      },
    };
  };

  return {
    instance,
    bridge: `${prefix}br0`,
    bridgeAddress: `${net}.1`,
    prefixLength: 24,
    subnet: `${net}.0/24`,
    runDir,
    identityDir,
    statePath: join(runDir, 'state.json'),
    lockPath: join(LAB_RUN_ROOT, `${instance}.lock`),
    keyPath: join(identityDir, 'id_ed25519'),
    publicKeyPath: join(identityDir, 'id_ed25519.pub'),
    knownHostsPath: join(runDir, 'known_hosts'),
    authorizedKeysDir: join(runDir, 'authorized_keys'),
    hosts: { client: host('client'), server: host('server') },
  };
}
