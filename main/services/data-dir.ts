// Where Benchlab keeps its data: BENCHLAB_DATA_DIR, else the per-OS user data folder (the same one
// Electron's app.getPath('userData') uses, so the desktop app and web mode share one store); and
// the folder made ready, or refused in one line that says why.

import { accessSync, constants, mkdirSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ApiError, messageOf } from '../../app/common/errors.ts';

export const APP_DIR_NAME = 'Benchlab';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env.BENCHLAB_DATA_DIR?.trim();
  if (override) return resolve(override);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_DIR_NAME);
}

/** A data folder that cannot be used, said in one line a person can act on. */
export class DataDirError extends ApiError {
  constructor(message: string) {
    super('invalid_args', message);
    this.name = 'DataDirError';
  }
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'it is on a read-only file system',
  ENOSPC: 'the disk is full',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'its path has a symbolic link loop',
};

/**
 * Creates the data folder (mode 0700) and the folders above it that are missing, one level at a
 * time: a recursive mkdir can spin for minutes under /proc, so each level is made and checked here.
 * Throws a DataDirError naming the folder and why, never a raw errno line.
 */
export function ensureDataDir(dir: string): void {
  const cannot = (why: string) => new DataDirError(`cannot use ${dir} as the data folder: ${why}`);
  const missing: string[] = [];
  let existing = resolve(dir);
  for (;;) {
    let stats;
    try {
      stats = statSync(existing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOTDIR') {
        // Somewhere above is a file: name it.
        let file = existing;
        while (dirname(file) !== file && !statSafe(file)?.isFile()) file = dirname(file);
        throw cannot(`${file} is a file, not a folder`);
      }
      if (code !== 'ENOENT') throw cannot(REASONS[code] ?? `${existing}: ${code || messageOf(error)}`);
      if (dirname(existing) === existing) throw cannot(`${existing} does not exist`);
      missing.unshift(existing);
      existing = dirname(existing);
      continue;
    }
    if (!stats.isDirectory()) throw cannot(`${existing} is a file, not a folder`);
    break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST' && statSafe(folder)?.isDirectory()) continue;
      if (code === 'ENOENT') throw cannot(`${dirname(folder)} does not take new folders`);
      throw cannot(`cannot create ${folder}: ${REASONS[code] ?? (code || messageOf(error))}`);
    }
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw cannot('the folder is not writable');
  }
}

function statSafe(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
