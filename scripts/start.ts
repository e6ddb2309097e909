// `npm start`: one command for a fresh clone. Owns the choice of front door: the desktop app when
// the Electron binary is present (or can be fetched) and there is a display, otherwise web mode
// with the same back end, said in one line. Only Node built-ins here: node_modules may not exist yet.

import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { onEnterAtTerminal } from '../main/web/new-url-on-demand.ts';
import { ENTER_FORWARDED_ENV, STARTED_BY_ENV } from '../main/web/way-back.ts';
import { ensureDependencies } from './ensure-deps.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ELECTRON_DIR = join(ROOT, 'node_modules', 'electron');
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** Our environment minus ELECTRON_RUN_AS_NODE, which would make the binary behave as plain Node. */
const { ELECTRON_RUN_AS_NODE: _dropped, ...ELECTRON_ENV } = process.env;

function electronBinary(): string | undefined {
  try {
    const binary = join(ELECTRON_DIR, 'dist', readFileSync(join(ELECTRON_DIR, 'path.txt'), 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** The binary runs here: as Node it needs no display, but it does load all its shared libraries. */
function runs(binary: string): boolean {
  const probe = spawnSync(binary, ['--version'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: 'ignore', timeout: 15_000 });
  return probe.status === 0;
}

/** The Electron binary to launch, or why the desktop app cannot start here. */
function electronOrReason(): { binary: string } | { reason: string } {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  }
  let binary = electronBinary();
  if (!binary) {
    // npm may have skipped the download (offline, or --ignore-scripts). One more try, bounded, with
    // its output captured: offline it prints a stack trace that would bury the one line we print.
    spawnSync(process.execPath, [join(ELECTRON_DIR, 'install.js')], { cwd: ELECTRON_DIR, stdio: 'pipe', timeout: DOWNLOAD_TIMEOUT_MS });
    binary = electronBinary();
  }
  if (!binary) return { reason: 'the Electron binary cannot be obtained (offline?)' };
  if (!runs(binary)) return { reason: 'the Electron binary does not run here (missing system libraries?)' };
  return { binary };
}

/** Newest modification time of a file or of any file under a folder. */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** The web build is newer than everything it is built from, so starting needs no rebuild. */
function webBuildIsCurrent(): boolean {
  const built = newestMtime(join(ROOT, 'out', 'web', 'index.html'));
  const sources = ['renderer', 'app', 'vite.web.config.ts', 'package-lock.json'].map((path) => newestMtime(join(ROOT, path)));
  return built > 0 && built >= Math.max(...sources);
}

/** `npm run <script>`, through the npm that started us when there is one. */
function npmRun(script: string): void {
  const options: SpawnSyncOptions = { cwd: ROOT, stdio: 'inherit' };
  const npmCli = process.env.npm_execpath;
  const result = npmCli
    ? spawnSync(process.execPath, [npmCli, 'run', script], options)
    : spawnSync('npm', ['run', script], { ...options, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs the app in the foreground until it exits, then exits with its code. */
function runApp(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  // Its own process group on POSIX, and each signal forwarded once: a Ctrl-C reaches us from the
  // terminal and again from npm, and a second SIGINT would cut the app's graceful shutdown short.
  // SIGHUP too, since the detached child no longer hears the terminal close.
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], detached: process.platform !== 'win32' });
  const forwarded = new Set<NodeJS.Signals>();
  const forward = (signal: NodeJS.Signals) => {
    if (forwarded.has(signal)) return;
    forwarded.add(signal);
    child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
  child.on('error', (error) => {
    console.error(`benchlab: cannot start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code) => process.exit(code ?? 1));
  return child;
}

ensureDependencies();
const electron = electronOrReason();
if ('binary' in electron) {
  npmRun('build:electron');
  runApp(electron.binary, ['.'], ELECTRON_ENV);
} else {
  console.log(`benchlab: ${electron.reason}; starting web mode instead.`);
  if (!webBuildIsCurrent()) npmRun('build:web');
  // Web mode's stdin is not the terminal (its own process group): Enter here is forwarded to it as
  // the SIGUSR2 that makes it print a new one-time link, and it is told so for its 401 pages.
  const web: { child?: ChildProcess } = {};
  const forwardsEnter = process.platform !== 'win32' && onEnterAtTerminal(() => web.child?.kill('SIGUSR2'));
  web.child = runApp(process.execPath, [join(ROOT, 'main', 'web', 'main.ts'), ...process.argv.slice(2)], {
    ...process.env,
    [STARTED_BY_ENV]: 'npm start',
    ...(forwardsEnter ? { [ENTER_FORWARDED_ENV]: '1' } : {}),
  });
}
