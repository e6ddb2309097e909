// The build step of every Node template, run on Benchlab's machine in (a copy of) the template's
// folder: `npm ci` installs its package-lock.json, then esbuild bundles its server.mjs with
// ../node-common and the npm packages it uses into one file, dist/server.mjs, so the host needs
// Node and nothing else (no registry, no node_modules). Beside it,
// dist/components.json names each dependency of the template's package.json with the version
// installed, e.g. {"express":"5.3.0","pg":"8.23.1"}: the server prints it when it listens and
// Benchlab records it with the deployment.

import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';

const folder = process.cwd();
const windows = process.platform === 'win32';
const install = spawnSync(windows ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund'], { cwd: folder, stdio: 'inherit', shell: windows });
if (install.status !== 0) {
  console.error(install.error ? `cannot run npm (${install.error.message}): Node.js with npm is needed on this machine to build the Node templates` : `npm ci failed with exit code ${install.status}`);
  process.exit(1);
}
// esbuild and the packages come from the template's node_modules, not from beside this file.
const fromTemplate = createRequire(join(folder, 'package.json'));
const { build } = fromTemplate('esbuild');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

const manifest = readJson(join(folder, 'package.json'));
const components = Object.fromEntries(
  Object.keys(manifest.dependencies ?? {}).map((name) => [name, readJson(join(folder, 'node_modules', name, 'package.json')).version]),
);

mkdirSync(join(folder, 'dist'), { recursive: true });
await build({
  entryPoints: [join(folder, 'server.mjs')],
  outfile: join(folder, 'dist', 'server.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: `node${manifest.engines?.node?.match(/\d+/)?.[0] ?? '18'}`,
  // ../node-common imports pg too: resolve every package from the template's node_modules.
  nodePaths: [join(folder, 'node_modules')],
  // Optional native add-ons, left out: pg's binding is loaded only on request (pg.native),
  // restify runs without its DTrace probes when dtrace-provider cannot be loaded, and the MongoDB
  // driver (under Mongoose) loads its optional compression, Kerberos, cloud-auth, SOCKS and
  // encryption packages only when a connection string asks for them.
  external: [
    'pg-native',
    'dtrace-provider',
    'kerberos',
    'snappy',
    '@mongodb-js/zstd',
    '@aws-sdk/credential-providers',
    'gcp-metadata',
    'socks',
    'aws4',
    'mongodb-client-encryption',
  ],
  // The CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as benchlabCreateRequire } from 'node:module'; const require = benchlabCreateRequire(import.meta.url);" },
  legalComments: 'eof',
  logLevel: 'warning',
});
writeFileSync(join(folder, 'dist', 'components.json'), `${JSON.stringify(components)}\n`);
const size = statSync(join(folder, 'dist', 'server.mjs')).size;
console.log(`dist/server.mjs: ${(size / 1024).toFixed(0)} KiB with ${Object.entries(components).map(([name, version]) => `${name} ${version}`).join(', ')}`);
