// Session snapshots on a real SQLite file: a session reads its own snapshot of its hosts with the
// findings about them, never another session's or a host's latest facts, and null when it has none;
// the comparison reads the same.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { HostFacts, type NoiseFinding, type SessionHostFacts } from '../../../app/hosts/host-facts.ts';
import { TRACKED_SYSCTLS } from '../../../app/hosts/system-info.ts';
import { ComparisonReader } from '../sessions/comparison-reader.ts';
import { testDatabasePerTest } from '../../../tests/support/test-database.ts';
import { HostsRepository } from './hosts-repository.ts';
import { SessionsRepository } from '../runs/sessions-repository.ts';
import { SnapshotsRepository } from './snapshots-repository.ts';

const database = testDatabasePerTest('snapshots-test');
let snapshots: SnapshotsRepository;
let sessions: SessionsRepository;
let clientId: number;
let serverId: number;

beforeEach(() => {
  snapshots = new SnapshotsRepository(database.db);
  sessions = new SessionsRepository(database.db);
  const hosts = new HostsRepository(database.db);
  clientId = hosts.add({ name: 'client', address: '10.0.0.2', port: 22, user: 'bench', auth: 'agent' }).id;
  serverId = hosts.add({ name: 'server', address: '10.0.0.3', port: 22, user: 'bench', auth: 'agent' }).id;
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

/** A snapshot as the session service builds it, and the rows it stores (clients first, in order). */
function snapshotOf(clients: Array<[number, HostFacts]>, server: [number, HostFacts] | null, findings: NoiseFinding[]) {
  const snapshot: SessionHostFacts = { client: clients[0]?.[1] ?? null, clients: clients.map(([, facts]) => facts), server: server?.[1] ?? null, findings };
  const hosts = [...clients, ...(server ? [server] : [])].map(([hostId, facts]) => ({ hostId, facts }));
  return { snapshot, hosts };
}

function store(sessionId: number, clients: Array<[number, HostFacts]>, server: [number, HostFacts] | null, findings: NoiseFinding[]): SessionHostFacts {
  const { snapshot, hosts } = snapshotOf(clients, server, findings);
  snapshots.addForSession(sessionId, hosts, findings);
  return snapshot;
}

const same: NoiseFinding = { kind: 'same-machine', host: 'both', message: 'same machine', evidence: 'boot id b' };
const serverSwap: NoiseFinding = { kind: 'swap', host: 'server', message: 'swapping', evidence: 'pswpout +3' };

test("a session reads its own snapshot, never another session's or a host's later facts", () => {
  const first = newSession('first');
  const second = newSession('second');
  const firstSnapshot = store(first, [[clientId, facts('client', '18000 65535')]], [serverId, facts('server', '18000 65535')], [same, serverSwap]);
  store(second, [[clientId, facts('client', '32768 60999')]], [serverId, facts('server', '32768 60999')], []);
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
  store(recorded, [[clientId, facts('client', '18000 65535')]], [serverId, facts('server', '18000 65535')], [serverSwap]);
  snapshots.add(clientId, facts('client', '1 2'));
  assert.equal(snapshots.forSession(unrecorded), null);

  const reader = new ComparisonReader(database.db);
  const none = reader.session(sessions.get(unrecorded));
  assert.deepEqual(none.systems, { client: null, clients: [], server: null });
  assert.deepEqual(none.noise, []);
  const own = reader.session(sessions.get(recorded));
  assert.equal(own.systems.server!.sysctls['net.ipv4.ip_local_port_range'], '18000 65535');
  assert.deepEqual(own.noise, [serverSwap]);
});

test("a finding about a host whose facts could not be read is kept with the other host's row", () => {
  const session = newSession('half');
  const unavailable: NoiseFinding = { kind: 'unavailable', host: 'server', message: 'not read', evidence: 'connection lost' };
  const client = facts('client', '1 2');
  const snapshot = store(session, [[clientId, client]], null, [unavailable]);
  assert.deepEqual(snapshots.forSession(session), snapshot);
  assert.deepEqual(snapshot, { client, clients: [client], server: null, findings: [unavailable] });
});

test('a session on one host for both roles keeps both rows apart', () => {
  const session = sessions.create({ name: 'local', clientHostId: clientId, serverHostId: clientId, config: {}, status: 'completed' }).id;
  store(session, [[clientId, facts('client', '1 2')]], [clientId, facts('server', '3 4')], [same]);
  const read = snapshots.forSession(session)!;
  assert.equal(read.client!.sysctls['net.ipv4.ip_local_port_range'], '1 2');
  assert.equal(read.server!.sysctls['net.ipv4.ip_local_port_range'], '3 4');
  assert.deepEqual(read.findings, [same]);
});

test('a session with several clients keeps every client in order, each with the findings about it', () => {
  const hosts = new HostsRepository(database.db);
  const secondId = hosts.add({ name: 'client2', address: '10.0.0.4', port: 22, user: 'bench', auth: 'agent' }).id;
  const session = newSession('two clients');
  const first = facts('client', '1 2');
  const second = { ...facts('client', '5 6'), hostName: 'client2' };
  const secondLoad: NoiseFinding = { kind: 'load', host: 'client', hostName: 'client2', message: 'client2 is loaded', evidence: 'loadavg 8 8 8' };
  const thirdUnread: NoiseFinding = { kind: 'unavailable', host: 'client', hostName: 'client3', message: 'not read', evidence: 'timed out' };
  const snapshot = store(session, [[clientId, first], [secondId, second]], [serverId, facts('server', '3 4')], [same, secondLoad, thirdUnread]);

  const read = snapshots.forSession(session)!;
  assert.deepEqual(read.clients.map((client) => [client.hostName, client.sysctls['net.ipv4.ip_local_port_range']]), [['client', '1 2'], ['client2', '5 6']]);
  assert.deepEqual(read.client, first);
  assert.deepEqual(new Set(read.findings), new Set(snapshot.findings));
  // Each finding is stored with its own client's row (one about an unread client with the first).
  const rows = database.db.prepare('SELECT host_id, info FROM host_snapshot WHERE session_id = ? ORDER BY id').all(session) as Array<{ host_id: number; info: string }>;
  const kinds = rows.map((row) => [row.host_id, (JSON.parse(row.info) as { findings: NoiseFinding[] }).findings.map((finding) => finding.kind)]);
  assert.deepEqual(kinds, [
    [clientId, ['same-machine', 'unavailable']],
    [secondId, ['same-machine', 'load']],
    [serverId, ['same-machine']],
  ]);
});

test('a session stored before several clients (no clients field, no host names on findings) reads as one client', () => {
  const session = newSession('old');
  const old = (role: 'client' | 'server', findings: NoiseFinding[]) => JSON.stringify({ ...facts(role, '1 2'), findings });
  const insert = database.db.prepare('INSERT INTO host_snapshot (host_id, session_id, taken_at, info) VALUES (?, ?, ?, ?)');
  insert.run(clientId, session, '2026-01-01T00:00:00.000Z', old('client', [same]));
  insert.run(serverId, session, '2026-01-01T00:00:00.000Z', old('server', [same, serverSwap]));
  const read = snapshots.forSession(session)!;
  assert.equal(read.client!.hostName, 'client');
  assert.equal(read.clients.length, 1);
  assert.equal(read.server!.hostName, 'server');
  assert.deepEqual(read.findings, [same, serverSwap]);
});
