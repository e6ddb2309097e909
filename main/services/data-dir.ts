// Where Benchlab keeps its data: BENCHLAB_DATA_DIR, else the per-OS user data folder (the same one
// Electron's app.getPath('userData') uses, so the desktop app and web mode share one store).

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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
