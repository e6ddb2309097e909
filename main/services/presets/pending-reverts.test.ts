// Which hosts show "changes pending revert": a change nobody will revert (an apply that never
// finished, a plan whose Benchlab died, a preset applied on its own), never one a running plan of a
// live process will revert at its end, until that plan lets it go (its revert failed).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { HostsRepository } from '../hosts/hosts-repository.ts';
import type { Logger } from '../logger.ts';
import { openDatabase } from '../store/database.ts';
import { processOwner } from '../store/process-owner.ts';
import { ChangesRepository } from './changes-repository.ts';
import { PresetService, type PresetServiceOptions } from './preset-service.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-pending-'));
const { db } = openDatabase(dir);
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hosts = new HostsRepository(db);
const changes = new ChangesRepository(db);
const add = (name: string) => hosts.add({ name, address: '127.0.0.1', port: 22, user: 'bench', auth: 'agent' }).id;
const quiet = { info() {}, warn() {}, error() {} } as unknown as Logger;
const presets = new PresetService({ changes, hosts, log: quiet } as unknown as PresetServiceOptions);

function change(hostId: number, heldBy: { what: string; owner: string } | null, finished = true): void {
  const id = changes.begin({ hostId, presetId: 'wrk-seed', keys: ['net.core.somaxconn'], previous: { format: 1, createdAt: '2026-01-01T00:00:00Z', sysctls: {}, files: {} }, applied: { presetName: 'wrk seed', sysctls: {}, files: {} }, heldBy });
  if (finished) changes.markApplied(id);
}

test("a running plan's own preset is no pending revert; a dead plan's, one applied alone and a released one are", () => {
  const running = add('held by a running plan');
  const crashed = add('held by a plan whose Benchlab died');
  const alone = add('applied on its own');
  const released = add('released by its plan');
  change(running, { what: 'plan "Overnight"', owner: processOwner() });
  change(crashed, { what: 'plan "Overnight"', owner: '1:0' }, false);
  change(alone, null);
  change(released, { what: 'plan "Overnight"', owner: processOwner() });
  presets.release(released);

  const pending = presets.pending();
  assert.deepEqual(
    pending.map((entry) => [entry.hostName, entry.state]),
    [
      ['held by a plan whose Benchlab died', 'interrupted'],
      ['applied on its own', 'applied'],
      ['released by its plan', 'applied'],
    ],
  );
  // Once the running plan reverts, its host has nothing left either way.
  changes.markReverted(running);
  assert.ok(!presets.pending().some((entry) => entry.hostId === running));
});
