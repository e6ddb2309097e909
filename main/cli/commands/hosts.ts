// `benchlab hosts list|add|import-ssh-config|check`: the Hosts page headless. Entries are added
// and validated by the hosts service; check connects under the CLI's host key rules and reads
// each host's system info.

import { readFile } from 'node:fs/promises';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import type { Host } from '../../../app/hosts/hosts.ts';
import { candidateHostInput } from '../../../app/hosts/ssh-config.ts';
import type { SystemInfo } from '../../../app/hosts/system-info.ts';
import { EXIT, formatTable, stringOption, UsageError, verbOf, writeJson, type Command, type CommandContext } from '../cli-kit.ts';
import { parseLogin } from '../../../app/hosts/host-ref.ts';
import { addHost, connectHost, localUser, resolveHostRef } from '../host-refs.ts';

const VERBS = ['list', 'add', 'import-ssh-config', 'check'] as const;

export const hostsCommand: Command = {
  name: 'hosts',
  summary: 'list, add, import (~/.ssh/config) and check the stored hosts',
  usage: `usage: benchlab hosts list [--json]
       benchlab hosts add NAME USER@HOST[:PORT] [--key FILE | --password] [--jump HOST] [--json]
       benchlab hosts import-ssh-config [--file FILE] [--all | ALIAS...] [--json]
       benchlab hosts check HOST... [--accept-new-host-keys] [--json]

  list                 the stored hosts and their pinned keys
  add                  store a host; it logs in with the SSH agent unless --key or --password
    --key FILE         log in with this private key (its passphrase from BENCHLAB_SSH_PASSPHRASE)
    --password         log in with a password, read from BENCHLAB_SSH_PASSWORD when connecting
    --jump HOST        reach it through this stored host (ProxyJump)
  import-ssh-config    without aliases, list what ~/.ssh/config offers; with them (or --all), store them
    --file FILE        read this file instead of ~/.ssh/config
    --all              store every alias not stored yet
  check                connect to each HOST and show its system: exit 1 if any cannot be reached
    --accept-new-host-keys  pin the key of a host that has none pinned yet (as ssh's accept-new);
                       a changed key is always refused
  --json               machine-readable output

  HOST is a stored host name, local, USER@HOST[:PORT] or a ~/.ssh/config alias.`,
  example: `benchlab hosts add lab-server bench@10.0.0.2 --key ~/.ssh/id_ed25519
benchlab hosts check lab-server --accept-new-host-keys`,
  options: {
    json: { type: 'boolean' },
    key: { type: 'string' },
    password: { type: 'boolean' },
    jump: { type: 'string' },
    file: { type: 'string' },
    all: { type: 'boolean' },
    'accept-new-host-keys': { type: 'boolean' },
  },
  async run(ctx) {
    const verb = verbOf(ctx, VERBS);
    const args = ctx.positionals.slice(1);
    if (verb === 'list') return list(ctx, args);
    if (verb === 'add') return add(ctx, args);
    if (verb === 'import-ssh-config') return importSshConfig(ctx, args);
    return check(ctx, args);
  },
};

function login(host: Host): string {
  return host.kind === 'local' ? 'local' : `${host.user}@${host.address}:${host.port}`;
}

function authOf(host: Host): string {
  return host.auth === 'key' ? `key ${host.keyPath}` : host.auth;
}

function hostRows(hosts: Host[], all: Host[]): string[][] {
  const nameOf = (id: number | null) => all.find((host) => host.id === id)?.name ?? '';
  return hosts.map((host) => [host.name, login(host), authOf(host), host.kind === 'local' ? '-' : (host.hostKeyFingerprint ?? 'not pinned'), nameOf(host.jumpHostId)]);
}

const HOST_HEADERS = ['NAME', 'LOGIN', 'AUTH', 'HOST KEY', 'VIA'];

async function list(ctx: CommandContext, args: string[]): Promise<number> {
  if (args.length > 0) throw new UsageError(`hosts list takes no arguments, got "${args[0]}"`);
  const hosts = ctx.services().hostService.list();
  if (ctx.values.json) writeJson(ctx.stdout, hosts);
  else if (hosts.length === 0) ctx.stderr.write('no hosts stored yet: add one with benchlab hosts add\n');
  else ctx.stdout.write(formatTable(HOST_HEADERS, hostRows(hosts, hosts)));
  return EXIT.ok;
}

async function add(ctx: CommandContext, args: string[]): Promise<number> {
  const [name, loginText, ...extra] = args;
  if (!name || !loginText) throw new UsageError('hosts add needs NAME and USER@HOST[:PORT]');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const parsed = parseLogin(loginText);
  if (!parsed) throw new UsageError(`"${loginText}" is not USER@HOST[:PORT]`);
  const keyPath = stringOption(ctx, 'key');
  if (keyPath && ctx.values.password) throw new UsageError('--key and --password exclude each other');
  const services = ctx.services();
  const jumpName = stringOption(ctx, 'jump');
  const jump = jumpName ? await resolveHostRef(services, jumpName) : undefined;
  const host = addHost(services, {
    name,
    ...parsed,
    auth: keyPath ? 'key' : ctx.values.password ? 'password' : 'agent',
    ...(keyPath ? { keyPath } : {}),
    ...(jump ? { jumpHostId: jump.id } : {}),
  });
  if (ctx.values.json) writeJson(ctx.stdout, host);
  else ctx.stdout.write(formatTable(HOST_HEADERS, hostRows([host], services.hostService.list())));
  return EXIT.ok;
}

async function importSshConfig(ctx: CommandContext, aliases: string[]): Promise<number> {
  if (ctx.values.all && aliases.length > 0) throw new UsageError('pass --all or aliases, not both');
  const file = stringOption(ctx, 'file');
  let text: string | undefined;
  if (file) {
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : messageOf(error)}`);
    }
  }
  const services = ctx.services();
  const found = await services.hostService.importSshConfig(text);
  for (const warning of found.warnings) ctx.stderr.write(`benchlab hosts: ${warning}\n`);
  const stored = services.hostService.list();
  const storedByName = new Map(stored.map((host) => [host.name.toLowerCase(), host]));

  if (!ctx.values.all && aliases.length === 0) {
    if (ctx.values.json) writeJson(ctx.stdout, found);
    else if (found.candidates.length > 0) {
      const rows = found.candidates.map((candidate) => [
        candidate.name,
        `${candidate.user ?? localUser()}@${candidate.address}:${candidate.port}`,
        candidate.identityFile ? `key ${candidate.identityFile}` : 'agent',
        candidate.proxyJump ?? '',
        storedByName.has(candidate.name.toLowerCase()) ? 'stored' : 'new',
      ]);
      ctx.stdout.write(formatTable(['ALIAS', 'LOGIN', 'AUTH', 'VIA', 'STATUS'], rows));
      ctx.stderr.write(`${found.source}: store them with --all or by alias\n`);
    }
    return EXIT.ok;
  }

  const unknown = aliases.filter((alias) => !found.candidates.some((candidate) => candidate.name.toLowerCase() === alias.toLowerCase()));
  if (unknown.length > 0) throw new UsageError(`not in ${found.source}: ${unknown.join(', ')}`);
  const wanted = ctx.values.all ? found.candidates : found.candidates.filter((candidate) => aliases.some((alias) => alias.toLowerCase() === candidate.name.toLowerCase()));
  // Jump hosts first, so the hosts behind them can point at their new entries.
  const ordered = [...wanted].sort((a, b) => Number(Boolean(a.proxyJump)) - Number(Boolean(b.proxyJump)));
  const results: Array<{ alias: string; result: 'added' | 'stored already' | 'failed'; message: string }> = [];
  for (const candidate of ordered) {
    if (storedByName.has(candidate.name.toLowerCase())) {
      results.push({ alias: candidate.name, result: 'stored already', message: '' });
      continue;
    }
    const jump = candidate.proxyJump ? storedByName.get(candidate.proxyJump.toLowerCase()) : undefined;
    try {
      const host = addHost(services, candidateHostInput(candidate, { defaultUser: localUser(), jumpHostId: jump?.id }));
      storedByName.set(host.name.toLowerCase(), host);
      const note = candidate.proxyJump && !jump ? `jump host "${candidate.proxyJump}" is not stored: set it in the app` : '';
      results.push({ alias: candidate.name, result: 'added', message: note });
    } catch (error) {
      results.push({ alias: candidate.name, result: 'failed', message: messageOf(error) });
    }
  }
  if (ctx.values.json) writeJson(ctx.stdout, results);
  else ctx.stdout.write(formatTable(['ALIAS', 'RESULT', 'NOTE'], results.map((entry) => [entry.alias, entry.result, entry.message])));
  return results.some((entry) => entry.result === 'failed') ? EXIT.failed : EXIT.ok;
}

interface CheckResult {
  host: string;
  connected: boolean;
  hostKey: string | null;
  system: Pick<SystemInfo, 'hostname' | 'distro' | 'kernel' | 'cpuCores' | 'memoryBytes'> | null;
  error: string | null;
}

async function check(ctx: CommandContext, refs: string[]): Promise<number> {
  if (refs.length === 0) throw new UsageError('hosts check needs at least one HOST');
  const services = ctx.services();
  const hosts: Host[] = [];
  for (const ref of refs) hosts.push(await resolveHostRef(services, ref));
  const acceptNewHostKeys = ctx.values['accept-new-host-keys'] === true;
  const results = await Promise.all(
    hosts.map(async (host): Promise<CheckResult> => {
      try {
        await connectHost(services, host, {
          acceptNewHostKeys,
          onPinned: (pinned, fingerprint) => ctx.stderr.write(`benchlab hosts: pinned the host key of ${pinned.name}: ${fingerprint}\n`),
        });
        const info = await services.hostService.systemInfo(host.id, { refresh: true });
        const { hostname, distro, kernel, cpuCores, memoryBytes } = info!;
        return { host: host.name, connected: true, hostKey: services.hosts.get(host.id).hostKeyFingerprint, system: { hostname, distro, kernel, cpuCores, memoryBytes }, error: null };
      } catch (error) {
        const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
        return { host: host.name, connected: false, hostKey: services.hosts.get(host.id).hostKeyFingerprint, system: null, error: message };
      }
    }),
  );
  if (ctx.values.json) writeJson(ctx.stdout, results);
  else {
    const rows = results.map((result) => [
      result.host,
      result.connected ? 'yes' : 'no',
      result.hostKey ?? 'not pinned',
      result.system?.distro ?? '-',
      result.system ? result.system.cpuCores : '-',
      result.system ? `${(result.system.memoryBytes / 1024 ** 3).toFixed(1)} GiB` : '-',
    ]);
    ctx.stdout.write(formatTable(['HOST', 'CONNECTED', 'HOST KEY', 'OS', 'CORES', 'RAM'], rows));
    for (const result of results) {
      if (!result.error) continue;
      // Connection errors usually name the host already.
      const named = result.error.startsWith(`${result.host}:`) ? result.error : `${result.host}: ${result.error}`;
      ctx.stderr.write(`benchlab hosts: ${named}\n`);
    }
  }
  return results.every((result) => result.connected) ? EXIT.ok : EXIT.failed;
}
