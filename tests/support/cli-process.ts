// The `benchlab` CLI run to its end, for the CLI's tests: in a scratch folder removed after the
// file's tests, with HOME and the default data dir pointing into it, so no test reads or writes the
// user's own.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

const CLI = join(import.meta.dirname, '..', '..', 'main', 'cli', 'benchlab.ts');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ScratchCli {
  /** The scratch folder (HOME); the default data dir inside it is never used. */
  dir: string;
  run(args: string[], options?: { cwd?: string }): CliResult;
}

export function scratchCli(prefix: string): ScratchCli {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    run(args, options = {}) {
      const result = spawnSync(process.execPath, [CLI, ...args], {
        encoding: 'utf8',
        ...options,
        env: { ...process.env, HOME: dir, BENCHLAB_DATA_DIR: join(dir, 'never-used') },
      });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    },
  };
}

/** A scratch CLI with its own data dir: `cli(...)` runs `benchlab ... --data-dir <dataDir>`. */
export function storeCli(prefix: string): ScratchCli & { dataDir: string; cli(...args: string[]): CliResult } {
  const scratch = scratchCli(prefix);
  const dataDir = join(scratch.dir, 'data');
  return { ...scratch, dataDir, cli: (...args) => scratch.run(['--data-dir', dataDir, ...args]) };
}
