// Tests of the capture's pure side: the host's discovery read, the tool chosen per runtime or the
// one line saying what to install, and each tool's output turned into folded stacks.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseProfiler, foldCaptureOutput, foldV8Profile, parseDiscovery, runtimeOf } from './profile-capture.ts';

const DISCOVERY = ['pids 812 813 814 ', 'exe /usr/sbin/apache2', 'jcmd', 'jfr', 'perf /usr/bin/perf', 'paranoid 2', 'uid 0'].join('\n');

describe('profile capture', () => {
  test('reads the discovery: the pids on the port, the executable, the tools present', () => {
    const found = parseDiscovery(DISCOVERY);
    assert.deepEqual(found, { pids: [812, 813, 814], exe: '/usr/sbin/apache2', nodeVersion: null, jcmd: null, jfr: null, perf: '/usr/bin/perf', paranoid: 2, root: true });
  });

  test('the runtime follows the executable', () => {
    assert.equal(runtimeOf('/usr/lib/jvm/java-17-openjdk-amd64/bin/java'), 'jvm');
    assert.equal(runtimeOf('/var/lib/benchlab/node/bin/node'), 'node');
    assert.equal(runtimeOf('/usr/sbin/nginx'), 'native');
    assert.equal(runtimeOf(null), 'native');
  });

  test('chooses V8 for Node, JFR for a JDK, perf for anything else; else one line saying what to install', () => {
    const base = parseDiscovery(DISCOVERY);
    assert.deepEqual(chooseProfiler(base, 'web1', 8080), { tool: 'perf', runtime: 'native' });
    assert.deepEqual(chooseProfiler({ ...base, exe: '/usr/bin/node' }, 'web1', 8080), { tool: 'v8', runtime: 'node' });
    assert.deepEqual(chooseProfiler({ ...base, exe: '/usr/bin/node', nodeVersion: 'v24.11.0' }, 'web1', 8080), { tool: 'v8', runtime: 'node' });
    // Node 0.8 has no inspector: perf profiles it where it can, else the line says both.
    assert.deepEqual(chooseProfiler({ ...base, exe: '/b/node', nodeVersion: 'v0.8.28' }, 'web1', 8080), { tool: 'perf', runtime: 'node' });
    const oldNoPerf = chooseProfiler({ ...base, exe: '/b/node', nodeVersion: 'v0.8.28', perf: null }, 'web1', 8080);
    assert.ok('missing' in oldNoPerf && /install it .* to profile node \(Node v0\.8\.28 has no inspector for a V8 profile: it came with Node 8\)$/.test(oldNoPerf.missing), JSON.stringify(oldNoPerf));
    assert.deepEqual(chooseProfiler({ ...base, exe: '/opt/jdk/bin/java', jcmd: '/opt/jdk/bin/jcmd', jfr: '/opt/jdk/bin/jfr' }, 'web1', 8080), { tool: 'jfr', runtime: 'jvm' });
    const jre = chooseProfiler({ ...base, exe: '/opt/jre/bin/java' }, 'web1', 8080);
    assert.ok('missing' in jre && /install a full JDK/.test(jre.missing) && jre.tool === 'jfr', JSON.stringify(jre));
    const noPerf = chooseProfiler({ ...base, perf: null }, 'web1', 8080);
    assert.ok('missing' in noPerf && noPerf.missing.startsWith('perf is not installed on web1: install it') && !noPerf.missing.includes('\n'), JSON.stringify(noPerf));
    const notRoot = chooseProfiler({ ...base, root: false }, 'web1', 8080);
    assert.ok('missing' in notRoot && /perf_event_paranoid is 2/.test(notRoot.missing));
    assert.deepEqual(chooseProfiler({ ...base, root: false, paranoid: 1 }, 'web1', 8080), { tool: 'perf', runtime: 'native' });
    const nobody = chooseProfiler({ ...base, pids: [] }, 'web1', 8080);
    assert.ok('missing' in nobody && /listens on port 8080 of web1/.test(nobody.missing));
  });

  test('counted stacks (uniq -c after the host folded them) become folded text', () => {
    const out = ['@started', '@counted', '     12 apache2;ap_run_handler;ap_directory_walk', '      3 apache2;[kernel.kallsyms]', '      2 apache2;ap_run_handler;ap_directory_walk', ''].join('\n');
    assert.deepEqual(foldCaptureOutput(out), { folded: 'apache2;[kernel.kallsyms] 3\napache2;ap_run_handler;ap_directory_walk 14\n' });
  });

  test("V8's profile: each sample's stack root first, without V8's (root), frames named with their file and line", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
        { id: 2, callFrame: { functionName: 'handle', url: 'file:///srv/server.mjs', lineNumber: 9 }, children: [3] },
        { id: 3, callFrame: { functionName: 'fib', url: 'file:///srv/server.mjs', lineNumber: 29 } },
        { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      ],
      samples: [3, 3, 4, 2, 3],
    };
    assert.deepEqual(foldV8Profile(profile), [
      { frames: ['handle server.mjs:10', 'fib server.mjs:30'], count: 3 },
      { frames: ['(idle)'], count: 1 },
      { frames: ['handle server.mjs:10'], count: 1 },
    ]);
    assert.deepEqual(foldCaptureOutput(`@started\n@v8 ${JSON.stringify(profile)}\n`), { folded: '(idle) 1\nhandle server.mjs:10 1\nhandle server.mjs:10;fib server.mjs:30 3\n' });
  });

  test('a failure, a cut V8 profile, or no output at all is why there is no profile', () => {
    assert.deepEqual(foldCaptureOutput('@failed jcmd JFR.start: Could not attach\n'), { failed: 'jcmd JFR.start: Could not attach' });
    assert.deepEqual(foldCaptureOutput('@started\n@v8 {"nodes":[\n'), { failed: 'the V8 profile did not arrive whole' });
    assert.ok('failed' in foldCaptureOutput('@started\n'));
  });
});
