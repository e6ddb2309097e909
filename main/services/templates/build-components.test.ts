import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { describeComponents, readBuildComponents } from './build-components.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-components-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the components a build wrote are read as names and versions', async () => {
  const file = join(dir, 'components.json');
  writeFileSync(file, '{"express":"5.3.0","pg":"8.23.1"}\n');
  const components = await readBuildComponents(file, 'dist/components.json');
  assert.deepEqual(components, { express: '5.3.0', pg: '8.23.1' });
  assert.equal(describeComponents(components), 'express 5.3.0, pg 8.23.1');
});

test('a missing or malformed components file fails the deploy saying which file and to rebuild', async () => {
  await assert.rejects(readBuildComponents(join(dir, 'absent.json'), 'dist/components.json'), /the build's dist\/components\.json cannot be read .*rebuild the template/);
  const file = join(dir, 'numbers.json');
  writeFileSync(file, '{"pg":8}');
  await assert.rejects(readBuildComponents(file, 'dist/components.json'), /is not an object of package names and versions: rebuild the template/);
});
