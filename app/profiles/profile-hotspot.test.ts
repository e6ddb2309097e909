// The profile as the verdict reads it: the frame with the most self samples (the flame graph's first
// top frame), over the samples of work — V8's idle samples left out, its unnamed ones counted as
// work but never named.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flameTree, topFrames } from './flame-graph.ts';
import { profileHotspot } from './profile-hotspot.ts';

test('the hottest frame by self samples over every place it is called from, as the top-frames table', () => {
  const folded = 'main;a;fib 40\nmain;b;fib 30\nmain;serve 20\nmain;serve;parse 10\n';
  const hotspot = profileHotspot(folded, 'perf');
  assert.deepEqual(hotspot, { tool: 'perf', busySamples: 100, hottest: { name: 'fib', self: 70 } });
  assert.equal(topFrames(flameTree(folded), 1)[0]!.name, hotspot.hottest!.name);
});

test("V8's idle samples are no work; its unnamed native time is work but no hotspot", () => {
  const hotspot = profileHotspot('(idle) 900\n(program) 60\nhandle server.mjs:10 15\nhandle server.mjs:10;fib server.mjs:30 25\n', 'v8');
  assert.equal(hotspot.busySamples, 100);
  assert.deepEqual(hotspot.hottest, { name: 'fib server.mjs:30', self: 25 });
  assert.deepEqual(profileHotspot('(idle) 5\n', 'v8'), { tool: 'v8', busySamples: 0, hottest: null });
  assert.deepEqual(profileHotspot('', 'jfr'), { tool: 'jfr', busySamples: 0, hottest: null });
});

test('lines are read by the folded rules: a header and a bad count skipped, an empty last frame is no frame', () => {
  const folded = '# perf header\nmain;fib; 3\nmain;serve 2\nmain;serve x\n';
  assert.deepEqual(profileHotspot(folded, 'perf'), { tool: 'perf', busySamples: 5, hottest: { name: 'fib', self: 3 } });
  assert.equal(topFrames(flameTree(folded), 1)[0]!.name, 'fib');
});
