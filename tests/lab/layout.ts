// The lab's fixed layout: namespace, link and host names, addresses, and every file path, per lab
// instance and per client count. Pure data, so `up`, `down` and `status` agree on what belongs to
// the lab even when the state file is gone (every client's namespace and link follow one pattern).

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
  // The short soak's other lanes: its injections of one fault run side by side, one per lane.
  soak2: { prefix: 'blq2-', thirdOctet: 43 },
  soak3: { prefix: 'blq3-', thirdOctet: 44 },
  // Preset reverts that must restore mode, owner and group: its files get odd modes and a setgid
  // directory, which no other test should meet.
  revert: { prefix: 'blr-', thirdOctet: 14 },
  // A whole session on each load engine (native and Node) against a deployed template.
  engines: { prefix: 'bln-', thirdOctet: 15 },
  // One run driven from two load clients (scale-out): its own hosts, since it kills a client's agent.
  scaleout: { prefix: 'blo-', thirdOctet: 16 },
  // The Run page with two load clients end to end (the client picker, the clients table).
  scaleui: { prefix: 'blu-', thirdOctet: 17 },
  // End-to-end tests that deploy a template from the browser run two files at a time: each deploys
  // to a server of its own, since a host runs one Benchlab's server at a time.
  logpanel: { prefix: 'blg-', thirdOctet: 18 },
  rundeploy: { prefix: 'bly-', thirdOctet: 19 },
  // A plan's client preset applied to, and reverted on, each of two load clients.
  planclients: { prefix: 'blm-', thirdOctet: 20 },
  // Older native engine binaries removed from a client's agent folder, one in use kept.
  enginehosts: { prefix: 'blh-', thirdOctet: 21 },
  // New connections per request against both engines (connect time, HTTP/1.0) on the lab.
  newconn: { prefix: 'bla-', thirdOctet: 22 },
  // A Benchlab paused (SIGSTOP) or slow mid-run: the run goes on and keeps every second.
  paused: { prefix: 'blb-', thirdOctet: 23 },
  // Two Benchlab processes on one store and one set of hosts: whose server is whose.
  owners: { prefix: 'bli-', thirdOctet: 24 },
  // Two plans started at once on the same server host.
  ownerplans: { prefix: 'blj-', thirdOctet: 25 },
  // Comparisons of like with like: configurations, statuses and memory from real runs.
  likewise: { prefix: 'blz-', thirdOctet: 26 },
  // Charts and forms that agree with the tables (late answers, short runs, sweeps).
  screens: { prefix: 'bl1-', thirdOctet: 27 },
  // Plan files and hosts refused before anything connects.
  badinput: { prefix: 'bl2-', thirdOctet: 28 },
  // The seeds' studies with several requests, think time and steps relative to capacity.
  seeds: { prefix: 'bl3-', thirdOctet: 29 },
  // A preset's limits as they took effect (nofile above the hard cap), one pre-flight box.
  tookeffect: { prefix: 'bl4-', thirdOctet: 30 },
  // Templates page and deployment card against a running plan's server.
  deploycard: { prefix: 'bl5-', thirdOctet: 31 },
  // A study with several named requests, each run as its own run per template.
  requests: { prefix: 'bl6-', thirdOctet: 32 },
  // Think time between an answer and the next request, on both engines.
  think: { prefix: 'bl7-', thirdOctet: 33 },
  // Steps relative to a capacity measured by a short calibration.
  calibrate: { prefix: 'bl8-', thirdOctet: 34 },
  // Network presets (bandwidth, delay, loss) applied with tc and reverted.
  netem: { prefix: 'bl9-', thirdOctet: 35 },
  // A MongoDB-protocol database deployed privately with its template.
  mongo: { prefix: 'bl0-', thirdOctet: 36 },
  // Server runtime figures and profiles per run.
  runtime: { prefix: 'blr2-', thirdOctet: 37 },
  // CPU profiles of the server per run (flame graphs).
  profiles: { prefix: 'blpf-', thirdOctet: 38 },
  // The shipped studies run as a user runs them (`benchlab run`), for their tables in the docs.
  studyrun: { prefix: 'blsr-', thirdOctet: 39 },
  // The five seeds' findings reproduced by their shipped studies, one direction each.
  reproduce: { prefix: 'blrp-', thirdOctet: 40 },
  // The runtimes' own figures per second: JVM GC pauses and heap, Node's event-loop delay.
  gcloop: { prefix: 'blgc-', thirdOctet: 41 },
  // The loadtest seed's servers at the seed's rate, one at a time, to find where async falls behind.
  asyncload: { prefix: 'blal-', thirdOctet: 42 },
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

/**
 * A lab host by key: `server`, `client` (the first client) or `client2`, `client3`, … for the others.
 * The first client keeps the names it had when the lab had one client, so nothing that knows it changes.
 */
export type LabHostKey = LabRole | `client${number}`;

/** The most clients one lab instance makes (a run takes at most 16; the /24 has room for them). */
export const MAX_LAB_CLIENTS = 16;

/** The key of the client at `index` (0-based): client, client2, client3, … */
export function clientKey(index: number): LabHostKey {
  return index === 0 ? 'client' : `client${index + 1}`;
}

/** Which client a key names (0-based), or null for the server or a key that is no client's. */
export function clientIndexOf(key: string): number | null {
  const match = /^client(\d*)$/.exec(key);
  if (!match) return null;
  if (match[1] === '') return 0;
  const number = Number(match[1]);
  return number >= 2 && number <= MAX_LAB_CLIENTS && String(number) === match[1] ? number - 1 : null;
}

/** The server's last octet; client 1 is .2 (as ever), client n ≥ 2 is .(n + 2), after the server. */
const SERVER_OCTET = 3;
function hostOctet(key: LabHostKey): number {
  const index = clientIndexOf(key);
  if (index === null) return SERVER_OCTET;
  return index === 0 ? 2 : index + 3;
}

/** Hostname inside the host (bl-server, bl-client, bl-client2, …), the same in every instance. */
function hostnameOf(key: LabHostKey): string {
  return `bl-${key}`;
}

/** Name under which `--register` stores a host in Benchlab (lab-server, lab-client, lab-client2, …). */
export function registeredNameOf(key: LabHostKey): string {
  return `lab-${key}`;
}

/** Names under which `--register` stores the server and the first client. */
export const REGISTERED_NAMES: Record<LabRole, string> = { client: registeredNameOf('client'), server: registeredNameOf('server') };

/**
 * Machine paths each lab host sees replaced by a lab-owned copy (inside its own mount namespace).
 * /var/lib/benchlab is where Benchlab keeps its restore record on a host.
 */
export const PRIVATE_PATHS = ['/etc/security/limits.d', '/etc/security/limits.conf', '/etc/sysctl.d', '/etc/hosts', '/var/lib/benchlab', '/root'] as const;
export type PrivatePath = (typeof PRIVATE_PATHS)[number];

export interface LabHostLayout {
  key: LabHostKey;
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
  /** The server and the first client (index 0 of `clients`). */
  hosts: Record<LabRole, LabHostLayout>;
  /** Every client, in index order (at least one). */
  clients: LabHostLayout[];
  /** Every host: the clients, then the server. */
  all: LabHostLayout[];
}

/** Names of the namespaces (and, with `-v`, root-side links) of an instance's clients: `<prefix>client`, `<prefix>client2`, … */
export function clientNamePattern(instance: LabInstance): RegExp {
  // Prefixes are letters and a hyphen: nothing in them needs escaping.
  return new RegExp(`^${INSTANCES[instance].prefix}(client\\d*)(-v)?$`);
}

/** One host's layout, whatever the instance's client count. */
export function labHostLayout(instance: LabInstance, key: LabHostKey): LabHostLayout {
  const { prefix, thirdOctet } = INSTANCES[instance];
  const runDir = join(LAB_RUN_ROOT, instance);
  const identityDir = join(LAB_HOME, instance);
  const dir = join(runDir, key);
  return {
    key,
    role: key === 'server' ? 'server' : 'client',
    namespace: `${prefix}${key}`,
    hostname: hostnameOf(key),
    address: `10.231.${thirdOctet}.${hostOctet(key)}`,
    port: 22,
    vethRoot: `${prefix}${key}-v`,
    vethInside: 'eth0',
    dir,
    sshdConfig: join(dir, 'sshd_config'),
    pidFile: join(dir, 'sshd.pid'),
    logFile: join(dir, 'sshd.log'),
    hostKey: join(identityDir, `${key}_host_ed25519_key`),
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
}

export function labLayout(instance: LabInstance = 'default', clientCount = 1): LabLayout {
  if (!Number.isInteger(clientCount) || clientCount < 1 || clientCount > MAX_LAB_CLIENTS) {
    throw new Error(`a lab has 1 to ${MAX_LAB_CLIENTS} clients, not ${clientCount}`);
  }
  const { prefix, thirdOctet } = INSTANCES[instance];
  const net = `10.231.${thirdOctet}`;
  const runDir = join(LAB_RUN_ROOT, instance);
  const identityDir = join(LAB_HOME, instance);
  const clients = Array.from({ length: clientCount }, (_, index) => labHostLayout(instance, clientKey(index)));
  const server = labHostLayout(instance, 'server');

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
    hosts: { client: clients[0]!, server },
    clients,
    all: [...clients, server],
  };
}
