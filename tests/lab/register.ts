// Registers the lab's two hosts in a Benchlab store (the same SQLite file the app uses), through
// the app's own repository and validation, so a fresh Linux root machine has a ready two-host lab.

import { HostInput } from '../../app/hosts/hosts.ts';
import { defaultDataDir } from '../../main/services/data-dir.ts';
import { openDatabase } from '../../main/services/store/database.ts';
import { HostsRepository, type ValidHostInput } from '../../main/services/hosts/hosts-repository.ts';

export interface LabHostEntry {
  name: string;
  address: string;
  port: number;
  user: string;
  keyPath: string;
}

export interface RegisterResult {
  dataDir: string;
  databaseFile: string;
  added: string[];
  /** Hosts left as they were because a host of that name already exists. */
  skipped: Array<{ name: string; address: string }>;
  notices: string[];
}

export function registerLabHosts(entries: readonly LabHostEntry[], dataDir: string = defaultDataDir()): RegisterResult {
  const { db, file, notices } = openDatabase(dataDir);
  try {
    const hosts = new HostsRepository(db);
    const existing = new Map(hosts.list().map((host) => [host.name, host]));
    const result: RegisterResult = { dataDir, databaseFile: file, added: [], skipped: [], notices };
    for (const entry of entries) {
      const already = existing.get(entry.name);
      if (already) {
        result.skipped.push({ name: already.name, address: already.address });
        continue;
      }
      const parsed = HostInput.parse({ ...entry, auth: 'key' });
      const input: ValidHostInput = {
        name: parsed.name,
        address: parsed.address,
        port: parsed.port,
        user: parsed.user,
        auth: parsed.auth,
        keyPath: parsed.keyPath,
      };
      hosts.add(input);
      result.added.push(entry.name);
    }
    return result;
  } finally {
    db.close();
  }
}
