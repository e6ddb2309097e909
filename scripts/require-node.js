// The Node version Benchlab needs, checked before any TypeScript source loads: the sources run as
// they are (type stripping, on by default from Node 22.18), so an older Node would fail on the
// first .ts file with a stack trace instead of saying what is wrong. Plain JavaScript any Node
// parses. Run as a script (`npm start` and the other npm scripts do so first), it exits with the
// one line when this Node is too old.

/* global process */
import { pathToFileURL } from 'node:url';

export const MINIMUM_NODE = '22.18';

/** Null when this version runs Benchlab, else the line that says which Node is needed. */
export function nodeVersionProblem(version) {
  const [major = 0, minor = 0] = String(version).replace(/^v/, '').split('.').map(Number);
  const [needMajor, needMinor] = MINIMUM_NODE.split('.').map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return null;
  return `Node.js ${MINIMUM_NODE} or newer is needed (24 LTS recommended); this is Node.js ${String(version).replace(/^v/, '')}. Install a newer Node and run it again.`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem) {
    process.stderr.write(`benchlab: ${problem}\n`);
    process.exit(1);
  }
}
