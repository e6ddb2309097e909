// The CLI's plan of a preset's network side: the interface and why it, each setting now → planned,
// and the tc command apply will run, as `benchlab presets plan` prints them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatNetworkPlan } from './presets.ts';

test('the network plan names the interface, each setting now and planned, and the tc command', () => {
  const lines = formatNetworkPlan({
    interface: 'eth0',
    how: "routes to 10.0.0.1, where Benchlab's login comes from",
    current: "noqueue (the kernel's default)",
    action: 'shape',
    command: 'tc qdisc replace dev eth0 root handle b1ab: tbf rate 440mbit burst 220000 latency 50ms',
    rows: [{ setting: 'rate', label: 'bandwidth', current: null, next: '440 Mbit/s', change: 'change' }],
    origin: 'preset',
  }).join('\n');
  assert.match(lines, /^network: eth0 \(routes to 10\.0\.0\.1, where Benchlab's login comes from\); root qdisc now: noqueue \(the kernel's default\)$/m);
  assert.match(lines, /^~ +eth0 bandwidth +- +440 Mbit\/s/m);
  assert.match(lines, /^runs: tc qdisc replace dev eth0 root handle b1ab: tbf rate 440mbit/m);
});
