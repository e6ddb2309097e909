// Noise findings in words without a browser (renderer/src/features/runs/noise-texts.ts): a finding's
// badge names its host (one client among several by name), and a check says which hosts it read.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostFacts } from '../../app/hosts/host-facts.ts';
import { checkedHostsText, findingHostLabel, mergeReadings, readAtText } from '../../renderer/src/features/runs/noise-texts.ts';

test("a finding's badge: its role, with the host's name when the finding carries one", () => {
  assert.equal(findingHostLabel({ host: 'client', hostName: 'bl-client2' }), 'client bl-client2');
  assert.equal(findingHostLabel({ host: 'server', hostName: 'bl-server' }), 'server bl-server');
  // Stored before findings named their host.
  assert.equal(findingHostLabel({ host: 'client' }), 'client');
  assert.equal(findingHostLabel({ host: 'both' }), 'both hosts');
});

test('the hosts a check read: every client in order, then the server', () => {
  const host = (role: 'client' | 'server', hostName: string) => ({ role, hostName }) as HostFacts;
  assert.equal(checkedHostsText({ clients: [host('client', 'a'), host('client', 'b')], server: host('server', 's') }), 'client a, client b, server s');
  assert.equal(checkedHostsText({ clients: [host('client', 'a')], server: null }), 'client a');
});

test('two readings of the same hosts are one list: a finding both made is one entry, each figure with when it was read', () => {
  const at = (h: number, m: number, s: number) => new Date(2026, 10, 27, h, m, s).toISOString();
  const host = (role: 'client' | 'server', hostName: string, takenAt: string) => ({ role, hostName, takenAt }) as HostFacts;
  const load = (figure: number) => ({ kind: 'load' as const, host: 'server' as const, hostName: 's', message: `The server s is already loaded (load average ${figure} on 2 cores) before the benchmark starts.`, evidence: `loadavg ${figure} 1 1` });
  const same = { kind: 'same-machine' as const, host: 'both' as const, message: 'one machine', evidence: 'both report boot id x' };
  const merged = mergeReadings([
    { when: 'next', findings: [load(3.2)], facts: { clients: [host('client', 'c', at(12, 1, 4))], server: host('server', 's', at(12, 1, 5)) } },
    { when: 'start', findings: [load(1.1), same], facts: { clients: [host('client', 'c', at(12, 0, 9))], server: host('server', 's', at(12, 0, 10)) } },
  ]);
  assert.deepEqual(merged.map((finding) => [finding.kind, finding.reads.map((read) => `${read.evidence} — ${read.readAt}`)]), [
    ['load', ['loadavg 3.2 1 1 — read 12:01:05, before the next run', "loadavg 1.1 1 1 — read 12:00:10, at this session's start"]],
    ['same-machine', ["both report boot id x — read 12:00:10, at this session's start"]],
  ]);
  assert.equal(readAtText('next', null), 'read before the next run');
});
