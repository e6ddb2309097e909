// The app's version, read once from package.json (the single place it is written).

import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function appVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    cached = pkg.version;
  }
  return cached;
}
