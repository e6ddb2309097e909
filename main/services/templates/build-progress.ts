// Download progress of a template build, read from what Maven and npm print: one line per file
// they fetch (Maven's "Downloaded from central: … (13 kB at 466 kB/s)", npm's "npm http fetch GET
// 200 … (cache miss)") would bury the build's own output, so those lines become one progress line
// that updates (at most every PROGRESS_EVERY_MS) and, when the step ends, one summary line.
// Maven prints them only without -ntp and npm only at its `http` log level: see transferArgv.

import { basename } from 'node:path';
import { formatBytes } from '../../../app/common/byte-size.ts';
import { plural } from '../../../app/common/plural.ts';

/** The progress line is sent again at most this often; the files fetched in between are counted. */
export const PROGRESS_EVERY_MS = 250;

export type TransferLine =
  | { tool: 'maven'; done: false; file: string }
  | { tool: 'maven'; done: true; file: string; bytes: number }
  | { tool: 'npm'; file: string; kind: 'package' | 'document'; cached: boolean };

// Matching the terminal's colour codes is the point of this pattern.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const MAVEN = /^(?:\[INFO\] )?(Downloading|Downloaded) from [^:]+: (\S+)(?: \((\d+(?:\.\d+)?) (B|kB|KB|MB|GB)(?: at [^)]*)?\))?$/;
const NPM = /^npm http fetch GET (\d{3}) (\S+) \d+ms(?: \((.+)\))?$/;
const UNITS: Record<string, number> = { B: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9 };

function lastPart(url: string): string {
  return decodeURIComponent(url.slice(url.lastIndexOf('/') + 1)) || url;
}

/** A download line of Maven or npm, read; null for any other line. */
export function parseTransferLine(raw: string): TransferLine | null {
  const line = raw.replace(ANSI, '').trim();
  const maven = MAVEN.exec(line);
  if (maven) {
    const file = lastPart(maven[2]!);
    if (maven[1] === 'Downloading') return { tool: 'maven', done: false, file };
    return { tool: 'maven', done: true, file, bytes: maven[3] ? Math.round(Number(maven[3]) * UNITS[maven[4]!]!) : 0 };
  }
  const npm = NPM.exec(line);
  if (npm) {
    const url = npm[2]!;
    const cached = (npm[3] ?? '').startsWith('cache hit');
    return { tool: 'npm', file: lastPart(url), kind: url.includes('/-/') ? 'package' : 'document', cached };
  }
  return null;
}

/** Counts one build step's downloads and says where they stand. */
export class TransferTally {
  #mavenFiles = 0;
  #mavenBytes = 0;
  #npmPackages = 0;
  #npmCached = 0;
  #npmDocuments = 0;
  #last = '';

  add(transfer: TransferLine): void {
    this.#last = transfer.file;
    if (transfer.tool === 'maven') {
      if (transfer.done) {
        this.#mavenFiles += 1;
        this.#mavenBytes += transfer.bytes;
      }
    } else if (transfer.kind === 'package') {
      this.#npmPackages += 1;
      if (transfer.cached) this.#npmCached += 1;
    } else {
      this.#npmDocuments += 1;
    }
  }

  /** "Maven downloaded 57 files, 3.4 MB so far; now maven-compiler-plugin-3.1.jar" */
  progress(): string {
    const done = this.#describe('so far');
    return done ? `${done}; now ${this.#last}` : `downloading ${this.#last}`;
  }

  /** "Maven downloaded 57 files, 3.4 MB in all" — the step's last word on it; null when nothing came. */
  summary(): string | null {
    return this.#describe('in all') || null;
  }

  #describe(when: string): string {
    const parts: string[] = [];
    if (this.#mavenFiles > 0) parts.push(`Maven downloaded ${plural(this.#mavenFiles, 'file')}, ${formatBytes(this.#mavenBytes)} ${when}`);
    if (this.#npmPackages + this.#npmDocuments > 0) {
      const cached = this.#npmCached > 0 ? ` (${this.#npmCached} from the cache)` : '';
      const fetched = [...(this.#npmPackages > 0 ? [`${plural(this.#npmPackages, 'package')}${cached}`] : []), ...(this.#npmDocuments > 0 ? [plural(this.#npmDocuments, 'package document')] : [])];
      parts.push(`npm fetched ${fetched.join(' and ')} ${when}`);
    }
    return parts.join('; ');
  }
}

/**
 * Feeds a step's output lines: download lines are counted into a progress line (sent through
 * `onProgress`, throttled), every other line is the caller's to show. finish() sends the summary.
 */
export class BuildProgress {
  readonly #onProgress: (text: string) => void;
  readonly #now: () => number;
  #tally = new TransferTally();
  #sentAt = -Infinity;

  constructor(onProgress: (text: string) => void, now: () => number = Date.now) {
    this.#onProgress = onProgress;
    this.#now = now;
  }

  /** True when the line was a download line (counted, not to be shown as it is). */
  take(line: string): boolean {
    const transfer = parseTransferLine(line);
    if (!transfer) return false;
    this.#tally.add(transfer);
    const now = this.#now();
    if (now - this.#sentAt >= PROGRESS_EVERY_MS) {
      this.#sentAt = now;
      this.#onProgress(this.#tally.progress());
    }
    return true;
  }

  /** The step's summary line when it downloaded anything, else null; the count starts again. */
  finish(): string | null {
    const summary = this.#tally.summary();
    this.#tally = new TransferTally();
    this.#sentAt = -Infinity;
    return summary;
  }
}

const MAVEN_COMMANDS = new Set(['mvn', 'mvn.cmd', 'mvnw', 'mvnw.cmd']);
const NO_TRANSFER_PROGRESS = new Set(['-ntp', '--no-transfer-progress']);

/**
 * The step's command as it runs, so its downloads can be counted: Maven without -ntp (in batch
 * mode, -B, it then prints one line per file, never a console bar), and npm at its `http` log level
 * (one line per fetch) through the environment, which reaches an npm that a build script starts.
 * The manifest's command stays as written: it is what the step's input stamp hashes.
 */
export function transferArgv(command: readonly string[]): { argv: string[]; env: Record<string, string> } {
  const [file, ...args] = command;
  const maven = file !== undefined && MAVEN_COMMANDS.has(basename(file));
  return {
    argv: [file!, ...(maven ? args.filter((arg) => !NO_TRANSFER_PROGRESS.has(arg)) : args)],
    env: { npm_config_loglevel: 'http' },
  };
}
