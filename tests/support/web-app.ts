// Starts the real web mode (`node main/web/main.ts`) on a fresh data dir for a test, and stops it.
// Each URL it prints opens web mode once: `url` is the first, for one browser context; another
// context (or a second login) takes a fresh one from `newUrl()`, which asks web mode as a user would.
// `seed` fills the store before web mode opens it (sessions for the library, say).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, type OpenedDatabase } from '../../main/services/store/database.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** A one-time URL as web mode prints it: "open http://127.0.0.1:<port>/?token=<64 hex>". */
const PRINTED_URL = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/g;

function printedUrls(output: string): string[] {
  return [...output.matchAll(PRINTED_URL)].map((match) => match[1]!);
}

export interface RunningWebApp {
  /** The first one-time URL web mode printed. */
  url: string;
  /** Another one-time URL: sends web mode SIGUSR2 and waits for the URL it prints. */
  newUrl(): Promise<string>;
  origin: string;
  dataDir: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export interface WebAppOptions {
  /** A fresh one (removed at stop) unless given. */
  dataDir?: string;
  /** Defaults to the built UI (`npm run build:web`). */
  staticDir?: string;
  timeoutMs?: number;
  seed?: (db: OpenedDatabase['db']) => void;
}

export async function startWebApp(options: WebAppOptions = {}): Promise<RunningWebApp> {
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'benchlab-e2e-'));
  if (options.seed) {
    const { db } = openDatabase(dataDir);
    try {
      options.seed(db);
    } finally {
      db.close();
    }
  }
  const staticDirArgs = options.staticDir ? ['--static-dir', options.staticDir] : [];
  const child = spawn(process.execPath, [join(REPO_ROOT, 'main/web/main.ts'), '--data-dir', dataDir, ...staticDirArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

  /** Resolves with the URL printed after the first `alreadyPrinted` ones. */
  const nextUrl = (alreadyPrinted: number, timeoutMs: number) =>
    new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => finish(new Error(`web mode did not print a URL in time:\n${output}`)), timeoutMs);
      const onExit = (code: number | null) => finish(new Error(`web mode exited with ${code} before printing a URL:\n${output}`));
      const onData = () => {
        const url = printedUrls(output)[alreadyPrinted];
        if (url) finish(url);
      };
      function finish(outcome: string | Error) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.off('exit', onExit);
        if (typeof outcome === 'string') resolveUrl(outcome);
        else reject(outcome);
      }
      child.stdout.on('data', onData);
      child.once('exit', onExit);
      onData();
    });

  const url = await nextUrl(0, options.timeoutMs ?? 15000);

  return {
    url,
    newUrl: () => {
      const next = nextUrl(printedUrls(output).length, 5000);
      child.kill('SIGUSR2');
      return next;
    },
    origin: new URL(url).origin,
    dataDir,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
