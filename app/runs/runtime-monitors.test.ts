import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_LOOP_MONITOR_SOURCE } from './event-loop-monitor.ts';
import { runtimeLogsOf, withRuntimeMonitors } from './runtime-monitors.ts';

test("a JVM template starts with its GC log in the run dir, a Node one with the event-loop monitor; the sampler finds both again in the command line", () => {
  const java = withRuntimeMonitors('{java}', ['/usr/bin/java', '-XX:+ExitOnOutOfMemoryError', '-jar', 'app.jar'], '/srv/run', '17.0.9');
  assert.deepEqual(java.argv.slice(2), ['-XX:+ExitOnOutOfMemoryError', '-jar', 'app.jar']);
  assert.deepEqual(java.files, []);
  assert.deepEqual(runtimeLogsOf(java.argv), { gcLog: '/srv/run/gc.log', eventLoopFolder: null });
  for (const version of ['1.8.0', '8.0.392', null]) {
    assert.deepEqual(withRuntimeMonitors('{java}', ['java', '-jar', 'app.jar'], '/srv/run', version).argv, ['java', '-jar', 'app.jar'], `Java ${version} starts without -Xlog`);
  }

  const node = withRuntimeMonitors('{node}', ['/opt/node/bin/node', '/srv/t/server.mjs', '--port', '8080'], '/srv/run');
  assert.deepEqual(node.argv, ['/opt/node/bin/node', '--require', '/srv/run/benchlab-event-loop.cjs', '/srv/t/server.mjs', '--port', '8080']);
  assert.deepEqual(node.files, [{ name: 'benchlab-event-loop.cjs', text: EVENT_LOOP_MONITOR_SOURCE }]);
  assert.deepEqual(runtimeLogsOf(node.argv), { gcLog: null, eventLoopFolder: '/srv/run/event-loop' });
  assert.deepEqual(withRuntimeMonitors('{node}', ['node', 'server.mjs'], '/srv/run', '24.11.0').argv, ['node', '--require', '/srv/run/benchlab-event-loop.cjs', 'server.mjs']);
  // Node 0.8 knows no --require and has no monitorEventLoopDelay: it starts as written.
  assert.deepEqual(withRuntimeMonitors('{node}', ['node', 'server.js'], '/srv/run', '0.8.28'), { argv: ['node', 'server.js'], files: [] });

  const apache = withRuntimeMonitors('{apache2}', ['/usr/sbin/apache2', '-d', '/srv/t'], '/srv/run');
  assert.deepEqual(apache, { argv: ['/usr/sbin/apache2', '-d', '/srv/t'], files: [] });
});

test('a server started by hand with its own GC log or the monitor is read too', () => {
  assert.deepEqual(runtimeLogsOf(['java', '-Xlog:gc*:file="logs/gc.log":time', '-jar', 'a.jar']).gcLog, 'logs/gc.log');
  assert.deepEqual(runtimeLogsOf(['java', '-Xlog:gc=info:file=/var/gc.log', '-Xlog:safepoint', '-jar', 'a.jar']).gcLog, '/var/gc.log');
  assert.equal(runtimeLogsOf(['java', '-Xlog:gc', '-jar', 'a.jar']).gcLog, null, 'a GC log to stdout is not a file to read');
  assert.equal(runtimeLogsOf(['node', '--require=./benchlab-event-loop.cjs', 'server.js']).eventLoopFolder, './event-loop');
  assert.equal(runtimeLogsOf(['node', '-r', 'other-module.cjs', 'server.js']).eventLoopFolder, null);
});
