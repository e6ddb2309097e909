// Whose server a run dir holds (ours, another live Benchlab's, a leftover, none), the words of a
// refusal that names its holder and its load, and which running sessions load a server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { processOwner } from '../store/process-owner.ts';
import type { RunInspection } from './remote-server.ts';
import { heldElsewhere, ownershipOf, sessionsLoading } from './server-owner.ts';
import { howToFreeHost } from '../../../app/templates/server-words.ts';

const recorded = { id: 'd1', templateId: 'node', templateName: 'Node.js (node:http)', variant: 'async', port: 8080, holder: 'the benchlab CLI (pid 7 on ci)' };
const inspection = (over: Partial<RunInspection>): RunInspection => ({ deployment: recorded, alive: true, heartbeatAgeSeconds: 2, exitCode: null, portInUse: false, present: true, heldBy: null, ...over });

test('ours by id; another live one by a fresh heartbeat; a stale or dead one is a leftover; an empty dir is none', () => {
  assert.deepEqual(ownershipOf(inspection({}), 'd1', 20), { kind: 'ours' });
  assert.deepEqual(ownershipOf(inspection({}), 'd0', 20), { kind: 'other', recorded, heartbeatAgeSeconds: 2 });
  assert.deepEqual(ownershipOf(inspection({}), null, 20), { kind: 'other', recorded, heartbeatAgeSeconds: 2 });
  assert.deepEqual(ownershipOf(inspection({ heartbeatAgeSeconds: 45 }), null, 20), { kind: 'leftover', recorded });
  assert.deepEqual(ownershipOf(inspection({ alive: false }), null, 20), { kind: 'leftover', recorded });
  assert.deepEqual(ownershipOf(inspection({ present: false, deployment: null, alive: null }), 'd1', 20), { kind: 'none' });
});

test('a refusal names the server, its deployment id, its holder and the runs loading it', () => {
  const other = ownershipOf(inspection({}), null, 20);
  assert.equal(other.kind, 'other');
  assert.equal(
    heldElsewhere('lab-server', other as Extract<typeof other, { kind: 'other' }>, ['A — Node'], 'not stopped'),
    'lab-server runs Node.js (node:http) (async) on port 8080 (deployment d1), held by the benchlab CLI (pid 7 on ci), heartbeat 2 s ago; run “A — Node” loads it now: not stopped. Stop it from that Benchlab, or confirm stopping that very deployment here.',
  );
});

test('from the CLI, a refusal says the command that stops the named deployment, never a button "here"', () => {
  const other = ownershipOf(inspection({}), null, 20) as Extract<ReturnType<typeof ownershipOf>, { kind: 'other' }>;
  const said = heldElsewhere('lab server', other, [], 'not stopped', 'cli');
  assert.doesNotMatch(said, /\bhere\b|confirm/);
  assert.match(said, /: not stopped\. Stop it from that Benchlab \(Ctrl-C where `benchlab deploy` or `benchlab run` serves it\), or stop that very deployment: `benchlab stop 'lab server' --deployment d1`\.$/);
  assert.equal(
    howToFreeHost('cli', 'lab-server', { startedBy: 'other', deploymentId: 'd1' }),
    'Stop that server first (`benchlab stop lab-server --deployment d1`, or Ctrl-C where it is served), or choose another server host.',
  );
  assert.equal(howToFreeHost('app', 'lab-server', { startedBy: 'this', deploymentId: 'd1' }), 'Stop that server first, or choose another server host.');
});

test('the sessions loading a server: running under a live owner, at its port, on its host entry or its address', () => {
  const live = processOwner();
  const rows = [
    { name: 'by host entry', owner: live, serverHostId: 2, target: 'http://10.0.0.3:8080' },
    { name: 'by address (another process names the host otherwise)', owner: live, serverHostId: 9, target: 'http://10.0.0.3:8080' },
    { name: 'another port', owner: live, serverHostId: 2, target: 'http://10.0.0.3:8081' },
    { name: 'its process is gone', owner: '1:0', serverHostId: 2, target: 'http://10.0.0.3:8080' },
    { name: 'no owner kept', owner: null, serverHostId: 2, target: 'http://10.0.0.3:8080' },
  ];
  assert.deepEqual(sessionsLoading(rows, { hostId: 2, address: '10.0.0.3', port: 8080 }), ['by host entry', 'by address (another process names the host otherwise)']);
});
