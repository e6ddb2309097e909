// Template builds in a copy under the data dir: the template's own folder is never written, the copy
// is reused while the sources are unchanged, and a changed template starts from a clean copy. A
// shared folder the build reads ("../common") is copied beside it and is part of its sources.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import type { Manifest } from '../../../app/templates/templates.ts';
import { demoBuildManifest } from '../../../tests/support/demo-template.ts';
import { sharedFolders } from '../../../app/templates/templates.ts';
import { buildInWorkspace, templateSourceHash } from './build-workspace.ts';

/** A template whose build counts its runs and writes out/app.jar from every file under src/. */
function demo(): Manifest {
  const script =
    "const fs=require('fs');fs.appendFileSync('runs.txt','run\\n');fs.mkdirSync('out',{recursive:true});" +
    "fs.writeFileSync('out/app.jar',fs.readdirSync('src').sort().map((f)=>f+'='+fs.readFileSync('src/'+f,'utf8')).join(';'))";
  return demoBuildManifest(script, ['src']);
}

describe('build workspaces', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'benchlab-workspace-'));
  const manifest = demo();
  let template: string;
  let builds: string;
  let round = 0;
  after(() => rmSync(scratch, { recursive: true, force: true }));
  beforeEach(() => {
    round++;
    template = join(scratch, `template-${round}`);
    builds = join(scratch, `builds-${round}`);
    mkdirSync(join(template, 'src'), { recursive: true });
    writeFileSync(join(template, 'src', 'a.txt'), 'A');
    writeFileSync(join(template, 'src', 'b.txt'), 'B');
  });

  test('the build runs in a copy: the template folder is left exactly as it was', async () => {
    const before = readdirSync(template, { recursive: true }).sort();
    const built = await buildInWorkspace(template, manifest, builds);
    assert.equal(built.dir, join(builds, 'demo', 'demo'));
    assert.deepEqual(built.artifacts, ['out/app.jar']);
    assert.equal(readFileSync(join(built.dir, 'out/app.jar'), 'utf8'), 'a.txt=A;b.txt=B');
    assert.deepEqual(readdirSync(template, { recursive: true }).sort(), before, 'nothing written into the template');
  });

  test('unchanged sources: the copy and its stamps are reused and the step is skipped', async () => {
    const steps: string[] = [];
    const first = await buildInWorkspace(template, manifest, builds);
    await buildInWorkspace(template, manifest, builds, { onStep: (name) => steps.push(name) });
    assert.deepEqual(steps, ['compile: up to date (sources unchanged)']);
    assert.equal(readFileSync(join(first.dir, 'runs.txt'), 'utf8'), 'run\n');
  });

  test('changed sources: a clean copy, so a file the template dropped is gone from the build', async () => {
    await buildInWorkspace(template, manifest, builds);
    rmSync(join(template, 'src', 'b.txt'));
    writeFileSync(join(template, 'src', 'a.txt'), 'A2');
    const built = await buildInWorkspace(template, manifest, builds);
    assert.equal(readFileSync(join(built.dir, 'out/app.jar'), 'utf8'), 'a.txt=A2');
    assert.equal(existsSync(join(built.dir, 'src', 'b.txt')), false);
    assert.equal(readFileSync(join(built.dir, 'runs.txt'), 'utf8'), 'run\n', 'the copy started clean');
  });

  test('build output already in the template folder is neither copied nor part of its hash', async () => {
    const clean = await templateSourceHash(template, manifest);
    mkdirSync(join(template, 'out'));
    writeFileSync(join(template, 'out', 'app.jar'), 'stale');
    assert.equal(await templateSourceHash(template, manifest), clean);
    const built = await buildInWorkspace(template, manifest, builds);
    assert.equal(readFileSync(join(built.dir, 'out/app.jar'), 'utf8'), 'a.txt=A;b.txt=B');
  });

  test('installed packages in the template folder (node_modules) are neither copied nor part of its hash', async () => {
    const clean = await templateSourceHash(template, manifest);
    mkdirSync(join(template, 'node_modules', 'pg'), { recursive: true });
    writeFileSync(join(template, 'node_modules', 'pg', 'package.json'), '{}');
    assert.equal(await templateSourceHash(template, manifest), clean);
    const built = await buildInWorkspace(template, manifest, builds);
    assert.equal(existsSync(join(built.dir, 'node_modules')), false);
  });

  test('two deploys of one template at once: one copy, one build', async () => {
    const [a, b] = await Promise.all([buildInWorkspace(template, manifest, builds), buildInWorkspace(template, manifest, builds)]);
    assert.equal(a.dir, b.dir);
    assert.equal(readFileSync(join(a.dir, 'runs.txt'), 'utf8'), 'run\n');
  });

  describe('a shared folder beside the template', () => {
    /** Like demo(), and the build also reads ../common/lib.txt, as a Maven parent at ../jvm-common/pom.xml is read. */
    const sharing = (): Manifest => {
      const script =
        "const fs=require('fs');fs.appendFileSync('runs.txt','run\\n');fs.mkdirSync('out',{recursive:true});" +
        "fs.writeFileSync('out/app.jar',fs.readFileSync('src/a.txt','utf8')+'+'+fs.readFileSync('../common/lib.txt','utf8'))";
      return demoBuildManifest(script, ['src', '../common']);
    };
    let shared: string;
    beforeEach(() => {
      // The template's folder and the shared one side by side, as in server-templates/.
      template = join(scratch, `sharing-${round}`, 'demo');
      shared = join(scratch, `sharing-${round}`, 'common');
      mkdirSync(join(template, 'src'), { recursive: true });
      writeFileSync(join(template, 'src', 'a.txt'), 'A');
      mkdirSync(shared, { recursive: true });
      writeFileSync(join(shared, 'lib.txt'), 'L');
    });

    test('is copied beside the template\'s copy, and nothing is written into either', async () => {
      assert.deepEqual(sharedFolders(sharing()), ['common']);
      const before = readdirSync(join(template, '..'), { recursive: true }).sort();
      const built = await buildInWorkspace(template, sharing(), builds);
      assert.equal(readFileSync(join(built.dir, 'out/app.jar'), 'utf8'), 'A+L');
      assert.equal(readFileSync(join(builds, 'demo', 'common', 'lib.txt'), 'utf8'), 'L');
      assert.deepEqual(readdirSync(join(template, '..'), { recursive: true }).sort(), before, 'nothing written into the templates folder');
    });

    test('a change in it builds again from a clean copy; no change skips the step', async () => {
      const steps: string[] = [];
      await buildInWorkspace(template, sharing(), builds);
      await buildInWorkspace(template, sharing(), builds, { onStep: (name) => steps.push(name) });
      assert.deepEqual(steps, ['compile: up to date (sources unchanged)']);
      writeFileSync(join(shared, 'lib.txt'), 'L2');
      const built = await buildInWorkspace(template, sharing(), builds, { onStep: (name) => steps.push(name) });
      assert.deepEqual(steps, ['compile: up to date (sources unchanged)', 'compile']);
      assert.equal(readFileSync(join(built.dir, 'out/app.jar'), 'utf8'), 'A+L2');
      assert.equal(readFileSync(join(built.dir, 'runs.txt'), 'utf8'), 'run\n', 'the copy started clean');
    });

    test('is part of the sources\' hash, its installed packages not', async () => {
      const before = await templateSourceHash(template, sharing());
      mkdirSync(join(shared, 'node_modules'));
      writeFileSync(join(shared, 'node_modules', 'x.js'), 'X');
      assert.equal(await templateSourceHash(template, sharing()), before);
      writeFileSync(join(shared, 'more.txt'), 'M');
      assert.notEqual(await templateSourceHash(template, sharing()), before);
    });
  });
});
