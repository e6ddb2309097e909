// Host facts on the two-host lab: each session stores what both hosts were at its start — a net.*
// sysctl changed afterwards changes neither that session's facts nor its column in a comparison,
// while the next session records the new value — with the limits of the server process listening
// on the target port; and the noise pre-flight sees that the lab's client and server are one machine.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Comparison } from '../../app/sessions/comparison.ts';
import type { SessionHostFacts } from '../../app/hosts/host-facts.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import type { SystemInfo } from '../../app/hosts/system-info.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { labExec, type LabRole } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'hostfacts';
const PORT = 18461;
const KEY = 'net.ipv4.tcp_fin_timeout';

async function sysctl(role: LabRole, value?: string): Promise<string> {
  const result = await labExec(role, value === undefined ? ['sysctl', '-n', KEY] : ['sysctl', '-w', `${KEY}=${value}`], { instance: INSTANCE });
  if (result.code !== 0) throw new Error(`sysctl on ${role}: ${result.stderr}`);
  return result.stdout.trim();
}

describe('host facts on the lab', { skip: skip ?? false }, () => {
  let lab: LabBackend;
  let target: string;
  const original: Partial<Record<LabRole, string>> = {};

  before(async () => {
    lab = await openLabBackend(INSTANCE, 'benchlab-hostfacts-lab-');
    original.client = await sysctl('client');
    original.server = await sysctl('server');
    const deployment = await lab.ok<{ url: string }>('templates.deploy', { hostId: lab.serverId, templateId: 'node', port: PORT });
    target = deployment.url.replace(/\/$/, '');
  });

  after(async () => {
    if (!lab) return;
    for (const role of ['client', 'server'] as const) if (original[role]) await sysctl(role, original[role]).catch(() => undefined);
    await lab.call('templates.stop', { hostId: lab.serverId });
    lab.close();
  });

  async function session(): Promise<number> {
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target, request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 1 } },
    });
    const ended = await lab.services.runs.finished(started.sessionId);
    assert.equal(ended.status, 'completed', ended.message ?? '');
    return started.sessionId;
  }

  test('the pre-flight reports the lab client and server as the same machine, with the server process limits', async () => {
    const check = await lab.ok<SessionHostFacts>('runs.preflight', { clientHostId: lab.clientId, serverHostId: lab.serverId, port: PORT });
    const same = check.findings.find((finding) => finding.kind === 'same-machine');
    assert.ok(same, `no same-machine finding in ${JSON.stringify(check.findings)}`);
    assert.equal(same.host, 'both');
    // Both lab hosts run on this machine's kernel: one boot id.
    const bootId = (await labExec('client', ['cat', '/proc/sys/kernel/random/boot_id'], { instance: INSTANCE })).stdout.trim();
    assert.match(same.evidence, new RegExp(bootId));
    assert.equal(check.client!.hostname, 'bl-client');
    assert.equal(check.server!.hostname, 'bl-server');

    const listener = check.server!.readings!.listener;
    assert.ok(listener, 'the process listening on the target port was not found');
    const limits = (await labExec('server', ['cat', `/proc/${listener.pid}/limits`], { instance: INSTANCE })).stdout;
    const nofile = /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits)!;
    assert.deepEqual(listener.limits.nofile, { soft: nofile[1], hard: nofile[2] });
    // The client is not asked for a listener: its limits are its login's, which the agent gets.
    assert.equal(check.client!.readings!.listener, null);
  });

  test("a session keeps its hosts' facts as they were at its start; the next session records the change", async () => {
    await sysctl('server', '33');
    await sysctl('client', '34');
    const first = await session();
    // Changed after the session: the Hosts page now reads 44 / 45 on refresh.
    await sysctl('server', '44');
    await sysctl('client', '45');
    const latest = await lab.ok<SystemInfo>('hosts.systemInfo', { id: lab.serverId, refresh: true });
    assert.equal(latest.sysctls[KEY], '44');

    const facts = await lab.ok<SessionHostFacts>('runs.hostFacts', { sessionId: first });
    assert.equal(facts.server!.sysctls[KEY], '33');
    assert.equal(facts.client!.sysctls[KEY], '34');
    assert.ok(facts.findings.some((finding) => finding.kind === 'same-machine'), 'the pre-flight findings were not stored with the session');

    const second = await session();
    const comparison = await lab.ok<Comparison>('compare.open', { sessionIds: [first, second] });
    const row = (role: string) => comparison.hosts.rows.find((candidate) => candidate.role === role && candidate.label === KEY)!;
    assert.deepEqual(row('server').values, ['33', '44']);
    assert.deepEqual(row('client').values, ['34', '45']);
    assert.ok(comparison.warnings.some((warning) => /started on noisy hosts/.test(warning) && /same machine/.test(warning)));
  });
});
