// `npm start` where Electron cannot run (no display here): one line says so and web mode starts.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');

test('without a display, npm start says why in one line and serves web mode', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, BENCHLAB_DATA_DIR: dataDir };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 100_000);
      child.stdout.on('data', () => {
        const match = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolveUrl(match[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    const reasons = output.split('\n').filter((line) => line.includes('starting web mode instead'));
    assert.equal(reasons.length, 1, output);
    assert.match(reasons[0]!, /no display/);
    assert.ok(output.includes(`data: ${dataDir}`), 'web mode uses BENCHLAB_DATA_DIR');
    const login = await fetch(url, { redirect: 'manual' });
    assert.equal(login.status, 303);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
