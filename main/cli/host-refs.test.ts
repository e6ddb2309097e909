// Host references on the command line: a stored name, user@host[:port] (added once, then reused),
// a ~/.ssh/config alias (read from a temporary HOME), and clear refusals.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createServices, type Services } from '../services/services.ts';
import { resolveHostRef } from './host-refs.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-host-refs-'));
const home = join(dir, 'home');
let services: Services;
const savedHome = process.env.HOME;

before(() => {
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(
    join(home, '.ssh', 'config'),
    ['Host bastion', '  HostName 10.9.0.1', '  User jump', '', 'Host lab-server', '  HostName 10.9.0.2', '  Port 2222', '  User bench', '  ProxyJump bastion', ''].join('\n'),
  );
  process.env.HOME = home;
  services = createServices({ dataDir: join(dir, 'data'), transport: 'cli', version: 'test' });
});

after(async () => {
  await services.close();
  process.env.HOME = savedHome;
  rmSync(dir, { recursive: true, force: true });
});

test('a stored host name resolves to that entry', async () => {
  const stored = services.hostService.add({ name: 'srv', address: '10.9.0.7', port: 22, user: 'root', auth: 'agent' });
  assert.equal((await resolveHostRef(services, 'srv')).id, stored.id);
});

test('`local` (or "This machine") is this machine, added once on first use and then reused', async () => {
  const first = await resolveHostRef(services, 'local');
  assert.equal(first.kind, 'local');
  assert.equal((await resolveHostRef(services, 'This machine')).id, first.id);
  assert.equal((await resolveHostRef(services, 'LOCAL')).id, first.id);
  assert.equal(services.hostService.list().filter((host) => host.kind === 'local').length, 1);
});

test('user@host:port adds an agent-auth entry once, then reuses it (with or without the default port)', async () => {
  const before = services.hostService.list().length;
  const first = await resolveHostRef(services, 'bench@10.9.0.3:22');
  assert.deepEqual([first.name, first.user, first.address, first.port, first.auth], ['bench@10.9.0.3:22', 'bench', '10.9.0.3', 22, 'agent']);
  assert.equal((await resolveHostRef(services, 'bench@10.9.0.3')).id, first.id);
  assert.equal((await resolveHostRef(services, 'bench@10.9.0.3:22')).id, first.id);
  assert.equal(services.hostService.list().length, before + 1);
  const otherPort = await resolveHostRef(services, 'bench@10.9.0.3:2200');
  assert.notEqual(otherPort.id, first.id);
});

test('an ~/.ssh/config alias is added as the import would add it, its ProxyJump host first', async () => {
  const host = await resolveHostRef(services, 'lab-server');
  assert.deepEqual([host.name, host.user, host.address, host.port], ['lab-server', 'bench', '10.9.0.2', 2222]);
  const jump = services.hostService.list().find((entry) => entry.id === host.jumpHostId);
  assert.equal(jump?.name, 'bastion');
  assert.equal(jump?.user, 'jump');
  assert.equal((await resolveHostRef(services, 'lab-server')).id, host.id);
});

test('refuses what is none of the three, and a bad address, storing nothing', async () => {
  const count = services.hostService.list().length;
  await assert.rejects(resolveHostRef(services, 'nowhere'), /no host "nowhere": not a stored host name, local, user@host\[:port\], or an alias in ~\/.ssh\/config/);
  await assert.rejects(resolveHostRef(services, 'root@bad_host!'), /^ApiError: root@bad_host!: the address "bad_host!" must be a hostname/);
  assert.equal(services.hostService.list().length, count);
});
