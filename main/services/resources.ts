// The folders Benchlab ships beside its code (resources/<name>: presets, studies): in a packaged
// app where electron-builder copies them (resourcesPath), else in the checkout, found the same way
// from the sources run in place (web mode, CLI, tests: main/services/) and from electron-vite's
// bundle (out/main/), both two folders below the root.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** resources/<name> of this installation, or null when it has none. */
export function builtInResourceDir(name: string): string | null {
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [...(resourcesPath ? [join(resourcesPath, name)] : []), join(fileURLToPath(new URL('../../resources/', import.meta.url)), name)];
  return candidates.find((dir) => existsSync(dir)) ?? null;
}
