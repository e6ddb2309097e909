// Session snapshots on a real SQLite file: a session reads its own snapshot of its hosts with the
// findings about them, never another session's or a host's latest facts, and null when it has none;
// the comparison reads the same.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { HostFacts, type NoiseFinding, type SessionHostFacts } from '../../../app/hosts/host-facts.ts';
import { TRACKED_SYSCTLS } from '../../../app/hosts/system-info.ts';
import { ComparisonReader } from './comparison-reader.ts';
import { openDatabase, type Db } from '../store/database.ts';
import { HostsRepository } from '../hosts/hosts-repository.ts';
import { SessionsRepository } from './sessions-repository.ts';
import { SnapshotsRepository } from './snapshots-repository.ts';

let dir: string;
let db: Db;
let snapshots: SnapshotsRepository;
let sessions: SessionsRepository;
let clientId: number;
let serverId: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-snapshots-test-'));
  db = openDatabase(dir).db;
  snapshots = new SnapshotsRepository(db);
  sessions = new SessionsRepository(db);
  const hosts = new HostsRepository(db);
  clientId = hosts.add({ name: 'client', address: '10.0.0.2', port: 22, user: 'bench', auth: 'agent' }).id;
  serverId = hosts.add({ name: 'server', address: '10.0.0.3', port: 22, user: 'bench', auth: 'agent' }).id;
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function newSession(name: string): number {
  return sessions.create({ name, clientHostId: clientId, serverHostId: serverId, config: {}, status: 'completed' }).id;
}

function facts(role: 'client' | 'server', portRange: string): HostFacts {
  return HostFacts.parse({
    role,
    hostName: role,
    hostname: `bl-${role}`,
    distro: 'Debian',
    kernel: '6.1.0',
    arch: 'x86_64',
    cpuModel: 'cpu',
    cpuCores: 2,
    memoryBytes: 1024,
    limits: { nofile: { soft: '1024', hard: '4096' }, nproc: { soft: '100', hard: '100' } },
    sysctls: { ...Object.fromEntries(TRACKED_SYSCTLS.map((key) => [key, '1'])), 'net.ipv4.ip_local_port_range': portRange },
    runtimes: { node: null, java: null, apache: null },
    takenAt: '2026-01-01T00:00:00.000Z',
    preset: { applied: role === 'server' ? ['wrk-seed'] : [], pending: [] },
    readings: { machineId: 'm', bootId: 'b', governors: ['performance'], boost: null, loadAverage: [0, 0, 0], busy: [], swap: null, listener: null },
  });
}

const same: NoiseFinding = { kind: 'same-machine', host: 'both', message: 'same machine', evidence: 'boot id b' };
const serverSwap: NoiseFinding = { kind: 'swap', host: 'server', message: 'swapping', evidence: 'pswpout +3' };

test("a session reads its own snapshot, never another session's or a host's later facts", () => {
  const first = newSession('first');
  const second = newSession('second');
  const firstSnapshot: SessionHostFacts = { client: facts('client', '18000 65535'), server: facts('server', '18000 65535'), findings: [same, serverSwap] };
  snapshots.addForSession(first, { client: clientId, server: serverId }, firstSnapshot);
  snapshots.addForSession(second, { client: clientId, server: serverId }, { client: facts('client', '32768 60999'), server: facts('server', '32768 60999'), findings: [] });
  // The Hosts page later reads the hosts again (a connect-time snapshot, no session).
  snapshots.add(serverId, { ...facts('server', '1024 2048') });

  assert.deepEqual(snapshots.forSession(first), firstSnapshot);
  assert.equal(snapshots.forSession(second)!.server!.sysctls['net.ipv4.ip_local_port_range'], '32768 60999');
  assert.deepEqual(snapshots.forSession(second)!.findings, []);
  assert.equal(snapshots.latest(serverId)!.sysctls['net.ipv4.ip_local_port_range'], '1024 2048');
});

test('a session without a snapshot reads null, and so does its comparison, even when the hosts have facts', () => {
  const recorded = newSession('recorded');
  const unrecorded = newSession('unrecorded');
  snapshots.addForSession(recorded, { client: clientId, server: serverId }, { client: facts('client', '18000 65535'), server: facts('server', '18000 65535'), findings: [serverSwap] });
  snapshots.add(clientId, facts('client', '1 2'));
  assert.equal(snapshots.forSession(unrecorded), null);

  const reader = new ComparisonReader(db);
  const none = reader.session(sessions.get(unrecorded));
  assert.deepEqual(none.systems, { client: null, server: null });
  assert.deepEqual(none.noise, []);
  const own = reader.session(sessions.get(recorded));
  assert.equal(own.systems.server!.sysctls['net.ipv4.ip_local_port_range'], '18000 65535');
  assert.deepEqual(own.noise, [serverSwap]);
});

test("a finding about a host whose facts could not be read is kept with the other host's row", () => {
  const session = newSession('half');
  const unavailable: NoiseFinding = { kind: 'unavailable', host: 'server', message: 'not read', evidence: 'connection lost' };
  const client = facts('client', '1 2');
  snapshots.addForSession(session, { client: clientId, server: serverId }, { client, server: null, findings: [unavailable] });
  assert.deepEqual(snapshots.forSession(session), { client, server: null, findings: [unavailable] });
});

test('a session on one host for both roles keeps both rows apart', () => {
  const session = sessions.create({ name: 'local', clientHostId: clientId, serverHostId: clientId, config: {}, status: 'completed' }).id;
  snapshots.addForSession(session, { client: clientId, server: clientId }, { client: facts('client', '1 2'), server: facts('server', '3 4'), findings: [same] });
  const read = snapshots.forSession(session)!;
  assert.equal(read.client!.sysctls['net.ipv4.ip_local_port_range'], '1 2');
  assert.equal(read.server!.sysctls['net.ipv4.ip_local_port_range'], '3 4');
  assert.deepEqual(read.findings, [same]);
});
