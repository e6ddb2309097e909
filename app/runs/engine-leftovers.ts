// Which of Benchlab's older native engine binaries to remove from a host's agent folder. Each
// binary is named by its hash (`benchlab-engine-<12 hex>`), so every new build leaves the previous
// one behind; this reads the folder's listing and the host's processes (as the listing script in
// main/services/runs/agent-host.ts prints them) and picks every such file but the current one and
// those a running process uses — another Benchlab's agent may be running an older build right now.

/** The names Benchlab gives the binaries it uploads; no other file in the folder is ever removed. */
const UPLOADED_ENGINE_NAME = /^benchlab-engine-[0-9a-f]{12}$/;

export interface EngineFile {
  name: string;
  bytes: number;
}

export interface EngineFolderListing {
  /** The current binary is already there (executable). */
  present: boolean;
  /** The folder's other engine files. */
  others: EngineFile[];
  /** Every running process's executable and arguments that name an engine file. */
  inUse: string[];
}

export interface EngineRemovals {
  remove: EngineFile[];
  /** Older binaries left in place because a process uses them. */
  keptInUse: string[];
  freedBytes: number;
}

/**
 * The listing script's lines: `present`, `file <bytes> <name>` per engine file other than the
 * current one, and `used <path or argument>` per process executable or argument naming one.
 */
export function parseEngineFolderListing(text: string): EngineFolderListing {
  const listing: EngineFolderListing = { present: false, others: [], inUse: [] };
  for (const line of text.split('\n')) {
    if (line.trim() === 'present') listing.present = true;
    const file = /^file\s+(\d+)\s+(\S+)$/.exec(line.trim());
    if (file) listing.others.push({ name: file[2]!, bytes: Number(file[1]) });
    if (line.startsWith('used ')) listing.inUse.push(line.slice('used '.length));
  }
  return listing;
}

/**
 * The files to remove: Benchlab's uploaded binaries other than `current`, unless a process's
 * executable or arguments name them (by name, wherever they sit: a file kept by mistake costs a
 * few megabytes, one removed by mistake fails another Benchlab's run).
 */
export function chooseEngineRemovals(listing: EngineFolderListing, current: string): EngineRemovals {
  const older = listing.others.filter((file) => file.name !== current && UPLOADED_ENGINE_NAME.test(file.name));
  const used = (file: EngineFile) => listing.inUse.some((entry) => entry.includes(file.name));
  const remove = older.filter((file) => !used(file));
  return {
    remove,
    keptInUse: older.filter(used).map((file) => file.name),
    freedBytes: remove.reduce((sum, file) => sum + file.bytes, 0),
  };
}
