import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseHostFacts } from '../../../app/templates/template-hosts.ts';
import { describeComponents, readBuildComponents, runtimeVersions } from './build-components.ts';

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

test('the runtime versions are those of the runtimes the start command uses, an uploaded one as uploaded', () => {
  const facts = parseHostFacts(
    ['home /root', 'uid 0', 'node /usr/bin/node v20.20.2', 'java /usr/lib/jvm/17/bin/java 17.0.12', 'java /usr/lib/jvm/21/bin/java 21.0.5', 'apache2 /usr/sbin/apache2 - 2.4.62', 'end'].join('\n'),
  );
  assert.deepEqual(runtimeVersions({ node: '/usr/bin/node' }, facts), { node: '20.20.2' });
  assert.deepEqual(runtimeVersions({ java: '/usr/lib/jvm/21/bin/java' }, facts), { java: '21.0.5' }, 'the Java picked, not the first found');
  assert.deepEqual(runtimeVersions({ apache2: '/usr/sbin/apache2', 'apache2.modules': '/usr/lib/apache2/modules' }, facts), { apache2: '2.4.62' });
  assert.deepEqual(runtimeVersions({ node: '/root/.benchlab/runtime/node-v24.21.0-linux-x64/bin/node' }, facts, { node: '24.21.0' }), { node: '24.21.0' });
  assert.deepEqual(runtimeVersions({}, facts), {});
});
