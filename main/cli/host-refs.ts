// How the command line names a host, and how it connects to one. A reference is a stored host's
// name, else `local` ("This machine", driven without SSH: added once when first named), else `user@host[:port]` (the stored entry with that login, or a new one using the agent),
// else an alias of ~/.ssh/config (added as the app's import would add it). Connecting follows
// ssh's StrictHostKeyChecking: a key not pinned yet is refused unless --accept-new-host-keys
// (then pinned, like `accept-new`), and a changed key is always refused.

import { userInfo } from 'node:os';
import { parseArgs as parseRequestArgs } from '../../app/contract.ts';
import { ApiError } from '../../app/common/errors.ts';
import type { ConnectSecrets } from '../../app/hosts/connections.ts';
import { LOCAL_HOST_NAME, type Host } from '../../app/hosts/hosts.ts';
import { loginRefProblem, parseLogin } from '../../app/hosts/host-ref.ts';
import { candidateHostInput } from '../../app/hosts/ssh-config.ts';
import type { Services } from '../services/services.ts';
import type { CommandContext } from './cli-kit.ts';

/** Names of "This machine" on the command line (its stored name matches first when it exists). */
const LOCAL_REFS = new Set(['local', LOCAL_HOST_NAME.toLowerCase()]);

/** A jump host chain longer than this is a loop in ~/.ssh/config. */
const MAX_JUMPS = 8;

export async function resolveHostRef(services: Services, ref: string): Promise<Host> {
  return resolve(services, ref.trim(), 0);
}

async function resolve(services: Services, ref: string, depth: number): Promise<Host> {
  if (ref === '') throw new ApiError('invalid_args', 'a host is required: a stored host name, local, user@host[:port], or a ~/.ssh/config alias');
  const hosts = services.hostService.list();
  const named = hosts.find((host) => host.name === ref);
  if (named) return named;
  if (LOCAL_REFS.has(ref.toLowerCase())) return services.hostService.addLocal();

  const login = parseLogin(ref);
  if (login) {
    const problem = loginRefProblem(ref);
    if (problem) throw new ApiError('invalid_args', `${ref}: ${problem}`);
    const { user, address, port } = login;
    const stored = hosts.find((host) => host.kind === 'ssh' && host.user === user && host.address === address && host.port === port);
    if (stored) return stored;
    return addHost(services, { name: `${user}@${address}:${port}`, address, port, user, auth: 'agent' });
  }

  const { candidates } = await services.hostService.importSshConfig();
  const candidate = candidates.find((entry) => entry.name.toLowerCase() === ref.toLowerCase());
  if (!candidate) {
    throw new ApiError('not_found', `no host "${ref}": not a stored host name, local, user@host[:port], or an alias in ~/.ssh/config`);
  }
  if (depth >= MAX_JUMPS) throw new ApiError('invalid_args', `${ref}: its ProxyJump chain is longer than ${MAX_JUMPS} hosts (a loop?)`);
  const jump = candidate.proxyJump ? await resolve(services, candidate.proxyJump, depth + 1) : undefined;
  return addHost(services, candidateHostInput(candidate, { defaultUser: localUser(), jumpHostId: jump?.id }));
}

/** Validated exactly as the app's hosts.add request validates what the form sends. */
export function addHost(services: Services, input: unknown): Host {
  const parsed = parseRequestArgs('hosts.add', input);
  if (!parsed.ok) throw new ApiError('invalid_args', parsed.error.message);
  return services.hostService.add(parsed.args);
}

/** ssh logs in as the local user when the config names none. */
export function localUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'root';
  }
}

export interface ConnectHostOptions {
  acceptNewHostKeys: boolean;
  /** Told about a key pinned on first use, as ssh warns "Permanently added …". */
  onPinned?: (host: Host, fingerprint: string) => void;
  /** Where the secrets come from: never flags (they would show in `ps` and shell history). */
  env?: NodeJS.ProcessEnv;
}

/** Secrets from the environment, for hosts that need them; held in memory for this process only. */
export function secretsFromEnv(env: NodeJS.ProcessEnv): ConnectSecrets {
  const secrets: ConnectSecrets = {};
  if (env.BENCHLAB_SSH_PASSWORD) secrets.password = env.BENCHLAB_SSH_PASSWORD;
  if (env.BENCHLAB_SSH_PASSPHRASE) secrets.passphrase = env.BENCHLAB_SSH_PASSPHRASE;
  if (env.BENCHLAB_SUDO_PASSWORD) secrets.sudoPassword = env.BENCHLAB_SUDO_PASSWORD;
  return secrets;
}

export async function connectHost(services: Services, host: Host, options: ConnectHostOptions): Promise<void> {
  if (services.connections.state(host.id).state === 'connected') return;
  await connect(services, host, options);
  // What the app does on every connect (leftover servers and agents) finishes before the command
  // acts on the host, and before the command's end closes the store under it.
  await services.connectChecks.settled(host.id);
}

async function connect(services: Services, host: Host, options: ConnectHostOptions): Promise<void> {
  // The jump host's key is checked on its own first, so pinning never mixes up whose key it is.
  if (host.jumpHostId) {
    const jump = services.hosts.get(host.jumpHostId);
    if (!jump.hostKeyFingerprint) await connectHost(services, jump, options);
  }
  const secrets = secretsFromEnv(options.env ?? process.env);
  try {
    await services.hostService.connect(host.id, secrets);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'host_key_changed') {
      throw new ApiError(
        'host_key_changed',
        `host key of ${host.name} has CHANGED: pinned ${error.details?.pinned}, now ${error.details?.fingerprint}; nothing was sent. If the host was reinstalled, replace the key in the app`,
        error.details,
      );
    }
    if (error.code !== 'host_key_unknown') throw error;
    const fingerprint = error.details?.fingerprint ?? '';
    if (!options.acceptNewHostKeys) {
      throw new ApiError('host_key_unknown', `host key of ${host.name} not pinned (${fingerprint}): pin it in the app or pass --accept-new-host-keys`, error.details);
    }
    services.hostService.trustKey(host.id, fingerprint);
    options.onPinned?.(host, fingerprint);
    await services.hostService.connect(host.id, secrets);
  }
}

/** A command's HOST argument, resolved and connected under the key rules its --accept-new-host-keys sets. */
export async function connectedHost(ctx: CommandContext, ref: string): Promise<Host> {
  const services = ctx.services();
  const host = await resolveHostRef(services, ref);
  await connectHost(services, host, {
    acceptNewHostKeys: ctx.values['accept-new-host-keys'] === true,
    onPinned: (pinned, fingerprint) => ctx.stderr.write(`pinned the host key of ${pinned.name}: ${fingerprint}\n`),
  });
  return host;
}
