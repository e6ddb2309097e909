import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BuildProgress, parseTransferLine, transferArgv } from './build-progress.ts';

test("Maven's transfer lines are read with their file and size", () => {
  assert.deepEqual(parseTransferLine('[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/apache/apache/10/apache-10.pom'), {
    tool: 'maven',
    done: false,
    file: 'apache-10.pom',
  });
  assert.deepEqual(parseTransferLine('[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/x/y/1/y-1.jar (1.6 MB at 2.0 MB/s)'), {
    tool: 'maven',
    done: true,
    file: 'y-1.jar',
    bytes: 1_600_000,
  });
  assert.deepEqual(parseTransferLine('\x1b[1;34mDownloaded from my-mirror: https://mirror/z/z-2.pom (345 B at 10 kB/s)\x1b[m'), { tool: 'maven', done: true, file: 'z-2.pom', bytes: 345 });
  assert.equal(parseTransferLine('[INFO] Building benchlab-jetty 1.0'), null);
  assert.equal(parseTransferLine('[ERROR] Failed to execute goal: Could not transfer artifact x from/to central'), null);
});

test("npm's fetch lines tell packages from package documents and the cache from the network", () => {
  assert.deepEqual(parseTransferLine('npm http fetch GET 200 https://registry.npmjs.org/has-symbols/-/has-symbols-1.1.0.tgz 856ms (cache miss)'), {
    tool: 'npm',
    file: 'has-symbols-1.1.0.tgz',
    kind: 'package',
    cached: false,
  });
  assert.deepEqual(parseTransferLine('npm http fetch GET 200 https://registry.npmjs.org/@types%2fnode 12ms (cache hit)'), { tool: 'npm', file: '@types/node', kind: 'document', cached: true });
  assert.equal(parseTransferLine('npm warn deprecated glob@7.2.3'), null);
  assert.equal(parseTransferLine('added 80 packages in 3s'), null);
});


test('a flood of download lines becomes a throttled progress line and one summary', () => {
  let now = 1000;
  const sent: string[] = [];
  const progress = new BuildProgress((text) => sent.push(text), () => now);
  for (let index = 1; index <= 100; index += 1) {
    assert.equal(progress.take(`[INFO] Downloaded from central: https://repo/x/f/${index}/f-${index}.jar (10 kB at 1 MB/s)`), true);
    now += 10; // 100 files in one second
  }
  assert.equal(progress.take('[INFO] BUILD SUCCESS'), false, 'other lines are the caller’s');
  assert.equal(sent.length, 4, 'one line at once, then one per 250 ms');
  assert.equal(sent[0], 'Maven downloaded 1 file, 10 kB so far; now f-1.jar');
  assert.equal(sent[3], 'Maven downloaded 76 files, 760 kB so far; now f-76.jar');
  assert.equal(progress.finish(), 'Maven downloaded 100 files, 1.0 MB in all');
  assert.equal(progress.finish(), null, 'the next step counts afresh');
  progress.take('[INFO] Downloading from central: https://repo/x/g/1/g-1.pom');
  assert.equal(progress.finish(), null, 'a download that never finished is no summary');
  progress.take('npm http fetch GET 200 https://registry.npmjs.org/pg/-/pg-8.23.1.tgz 12ms (cache hit)');
  progress.take('npm http fetch GET 200 https://registry.npmjs.org/express/-/express-5.3.0.tgz 856ms (cache miss)');
  progress.take('npm http fetch GET 200 https://registry.npmjs.org/unpipe 280ms (cache updated)');
  assert.equal(progress.finish(), 'npm fetched 2 packages (1 from the cache) and 1 package document in all');
});

test('Maven runs without -ntp and npm at its http log level; other commands are left as written', () => {
  assert.deepEqual(transferArgv(['mvn', '-B', '-ntp', 'package']), { argv: ['mvn', '-B', 'package'], env: { npm_config_loglevel: 'http' } });
  assert.deepEqual(transferArgv(['/opt/maven/bin/mvn', '--no-transfer-progress', '-q']).argv, ['/opt/maven/bin/mvn', '-q']);
  assert.deepEqual(transferArgv(['node', '../node-common/build.mjs', '-ntp']).argv, ['node', '../node-common/build.mjs', '-ntp']);
});
