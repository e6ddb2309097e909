// Uploads a set of files to a folder on a host, only those whose content differs: sha256 here
// against `sha256sum` there (a host without sha256sum gets everything).

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { untilAborted } from './until-aborted.ts';

export interface SyncItem {
  /** Path relative to the remote folder. */
  name: string;
  /** A local file, or bytes. */
  source: string | Buffer;
  mode?: number;
}

export interface SyncResult {
  uploaded: string[];
  unchanged: string[];
  bytes: number;
}

export interface SyncOptions {
  signal?: AbortSignal;
  /** Called before each upload, with its name, size and position among the uploads. */
  onFile?: (name: string, bytes: number, index: number, count: number) => void;
}

/** `<hash>  <name>` lines of sha256sum (text or binary mode) into a map. */
export function parseSha256sum(text: string): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (match) hashes.set(match[2]!, match[1]!);
  }
  return hashes;
}

export async function syncFiles(transport: HostTransport, remoteDir: string, items: readonly SyncItem[], options: SyncOptions = {}): Promise<SyncResult> {
  const local = await Promise.all(
    items.map(async (item) => {
      const bytes = typeof item.source === 'string' ? await readFile(item.source) : item.source;
      return { item, bytes, hash: createHash('sha256').update(bytes).digest('hex') };
    }),
  );
  const names = items.map((item) => shellQuote(item.name)).join(' ');
  const remote = await untilAborted(
    transport.exec(`cd ${shellQuote(remoteDir)} 2>/dev/null && command -v sha256sum >/dev/null && sha256sum -- ${names} 2>/dev/null; true`, { timeoutMs: 60_000 }),
    options.signal,
  );
  const present = parseSha256sum(remote.stdout);
  const changed = local.filter((file) => present.get(file.item.name) !== file.hash);
  const result: SyncResult = { uploaded: [], unchanged: local.filter((file) => !changed.includes(file)).map((file) => file.item.name), bytes: 0 };
  for (const [index, file] of changed.entries()) {
    options.onFile?.(file.item.name, file.bytes.length, index, changed.length);
    await transport.upload(file.bytes, `${remoteDir}/${file.item.name}`, {
      mode: file.item.mode ?? 0o644,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    result.uploaded.push(file.item.name);
    result.bytes += file.bytes.length;
  }
  return result;
}
