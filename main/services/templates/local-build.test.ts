import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Manifest } from '../../../app/templates/templates.ts';
import { demoBuildManifest } from '../../../tests/support/demo-template.ts';
import { until } from '../../../tests/support/until.ts';
import { runBuild } from './local-build.ts';

/** A template whose one build step appends a line to runs.txt and writes out/app.jar from src/a.txt. */
function template(dir: string, inputs: string[] | undefined): Manifest {
  const script = "const fs=require('fs');fs.appendFileSync('runs.txt','run\\n');fs.mkdirSync('out',{recursive:true});fs.writeFileSync('out/app.jar',fs.readFileSync('src/a.txt'))";
  mkdirSync(join(dir, 'src'), { recursive: true });
  return demoBuildManifest(script, inputs);
}

function runs(dir: string): number {
  return readFileSync(join(dir, 'runs.txt'), 'utf8').split('\n').filter(Boolean).length;
}

describe('local builds', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'benchlab-build-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('a step with inputs runs again only when an input, the command or an artifact changes', async () => {
    const dir = join(scratch, 'cached');
    const manifest = template(dir, ['src']);
    writeFileSync(join(dir, 'src', 'a.txt'), 'one');
    const steps: string[] = [];
    const options = { onStep: (name: string) => steps.push(name) };
    assert.deepEqual(await runBuild(dir, manifest, options), ['out/app.jar']);
    assert.deepEqual(await runBuild(dir, manifest, options), ['out/app.jar']);
    assert.equal(runs(dir), 1, 'unchanged sources: not built again');
    assert.deepEqual(steps, ['compile', 'compile: up to date (sources unchanged)']);

    writeFileSync(join(dir, 'src', 'a.txt'), 'two');
    await runBuild(dir, manifest);
    assert.equal(runs(dir), 2, 'a changed source builds');
    assert.equal(readFileSync(join(dir, 'out', 'app.jar'), 'utf8'), 'two');

    writeFileSync(join(dir, 'src', 'b.txt'), 'new');
    await runBuild(dir, manifest);
    assert.equal(runs(dir), 3, 'a new file among the inputs builds');

    rmSync(join(dir, 'out', 'app.jar'));
    await runBuild(dir, manifest);
    assert.equal(runs(dir), 4, 'a missing artifact builds');
  });

  test('builds of one folder wait for each other', async () => {
    const dir = join(scratch, 'queued');
    const manifest = template(dir, ['src']);
    writeFileSync(join(dir, 'src', 'a.txt'), 'one');
    await Promise.all([runBuild(dir, manifest), runBuild(dir, manifest), runBuild(dir, manifest)]);
    assert.equal(runs(dir), 1, 'the second and third found the first one’s result');
  });

  test('a step without inputs runs every time', async () => {
    const dir = join(scratch, 'uncached');
    const manifest = template(dir, undefined);
    writeFileSync(join(dir, 'src', 'a.txt'), 'one');
    await runBuild(dir, manifest);
    await runBuild(dir, manifest);
    assert.equal(runs(dir), 2);
  });

  test('output streams line by line while the step runs, and downloads become one progress line and a summary', async () => {
    const dir = join(scratch, 'streamed');
    const manifest = template(dir, undefined);
    // Prints what Maven and npm print while fetching, then waits for the test's go before it ends.
    manifest.build[0]!.command = [
      process.execPath,
      '-e',
      [
        "const fs=require('fs');",
        "console.log('[INFO] Scanning for projects...');",
        "console.log('[INFO] Downloading from central: https://repo.example/org/a/a-1.pom');",
        "console.log('[INFO] Downloaded from central: https://repo.example/org/a/a-1.pom (3.9 kB at 14 kB/s)');",
        "console.log('[INFO] Downloaded from central: https://repo.example/org/b/b-2.jar (13 kB at 466 kB/s)');",
        "console.error('npm http fetch GET 200 https://registry.example/pg/-/pg-8.23.1.tgz 856ms (cache miss)');",
        "console.log('loglevel ' + process.env.npm_config_loglevel);",
        "const wait=setInterval(()=>{if(fs.existsSync('go')){clearInterval(wait);fs.mkdirSync('out',{recursive:true});fs.writeFileSync('out/app.jar','x');console.log('[INFO] BUILD SUCCESS')}},20);",
      ].join(''),
    ];
    const output: string[] = [];
    const progress: string[] = [];
    const build = runBuild(dir, manifest, { onOutput: (line) => output.push(line), onProgress: (text) => progress.push(text) });
    await until(() => output.includes('loglevel http'), 'the first lines while the step still runs', 10_000);
    assert.equal(progress[0], 'downloading a-1.pom', 'the first download is shown at once');
    writeFileSync(join(dir, 'go'), '');
    await build;
    assert.deepEqual(output, [
      '[INFO] Scanning for projects...',
      'loglevel http',
      '[INFO] BUILD SUCCESS',
      'Maven downloaded 2 files, 17 kB in all; npm fetched 1 package in all',
    ]);
  });

  test('a build tool that is not installed is named as such', async () => {
    const dir = join(scratch, 'missing-tool');
    const manifest = template(dir, ['src']);
    manifest.build[0]!.command = ['benchlab-no-such-build-tool', 'package'];
    await assert.rejects(runBuild(dir, manifest), /cannot run benchlab-no-such-build-tool: benchlab-no-such-build-tool is not installed on this machine \(or not on PATH\)/);
  });
});
