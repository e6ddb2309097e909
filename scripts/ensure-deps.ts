// Makes a fresh clone runnable: installs node_modules with `npm ci` when they are missing or older
// than package-lock.json. Used by `npm start`, `npm test`, `npm run bench`. The Node version is
// checked before this runs (require-node.js): a Node too old to read this file never gets here.

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');

function installIsCurrent(): boolean {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return false;
  return statSync(marker).mtimeMs >= statSync(join(ROOT, 'package-lock.json')).mtimeMs;
}

export function ensureDependencies(): void {
  if (installIsCurrent()) return;
  console.log('benchlab: installing dependencies (npm ci)…');
  // npm is npm.cmd on Windows, which only a shell resolves.
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error('benchlab: `npm ci` failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}

// Run directly (import.meta.main is Node 24 only; users may have Node 22).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureDependencies();
