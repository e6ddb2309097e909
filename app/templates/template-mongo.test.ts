import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ferretdbFileName, mongoSettings, mongoUrl, parseFoundMongod, pickMongod, runsFerretdb } from './template-mongo.ts';

test('the lookup lines of the host’s mongods are read, and the newest serves', () => {
  const found = parseFoundMongod(
    ['mongod /usr/bin/mongod db version v7.0.14', 'mongod /opt/mongodb/bin/mongod db version v8.0.3', 'mongod /usr/bin/mongod db version v7.0.14', 'arch x86_64', 'mongod relative 6.0.1', 'end'].join('\n'),
  );
  assert.deepEqual(found, [
    { path: '/usr/bin/mongod', version: '7.0.14' },
    { path: '/opt/mongodb/bin/mongod', version: '8.0.3' },
  ]);
  assert.deepEqual(pickMongod(found), { path: '/opt/mongodb/bin/mongod', version: '8.0.3' });
  assert.deepEqual(pickMongod([{ path: '/a', version: '7.0.9' }, { path: '/b', version: '7.0.14' }]), { path: '/b', version: '7.0.14' }, 'by number, not by text');
  assert.equal(pickMongod([]), null);
});

test('FerretDB runs on x86_64 hosts; the URL and the recorded settings', () => {
  assert.equal(runsFerretdb('x86_64'), true);
  assert.equal(runsFerretdb('aarch64'), false);
  assert.equal(ferretdbFileName(), 'benchlab-ferretdb-linux-amd64');
  assert.equal(mongoUrl(27001), 'mongodb://127.0.0.1:27001/benchlab');
  assert.equal(mongoSettings('ferretdb').backend, 'sqlite');
  assert.deepEqual(mongoSettings('mongod'), { bindIp: '127.0.0.1', auth: 'off' });
});
