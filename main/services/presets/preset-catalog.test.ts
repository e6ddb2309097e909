// Tests of the preset catalog and the journal on a real SQLite file: the shipped presets load and
// validate (the wrk seed verbatim), user presets are stored (migration 2), built-ins stay
// read-only, and journal rows move pending → applied → reverted.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { LIMITS_DROP_IN } from '../../../app/presets/presets.ts';
import { createServices, type Services } from '../services.ts';
import { builtInStudiesDir, loadStudies } from '../plans/study-catalog.ts';
import { builtInPresetsDir, loadBuiltInPresets } from './preset-catalog.ts';

function freshServices(): Services {
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-presets-'));
  const services = createServices({ dataDir, transport: 'cli', version: 'test' });
  after(async () => {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return services;
}

describe('built-in presets', () => {
  test('the shipped files all load and validate', () => {
    const loaded = loadBuiltInPresets(builtInPresetsDir());
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(loaded.presets.map((preset) => preset.id).sort(), ['distribution-defaults', 'gatling-seed-link', 'high-concurrency-server', 'load-client', 'wrk-seed']);
    assert.ok(loaded.presets.every((preset) => preset.builtIn));
  });

  test("the Gatling seed's link preset is the server tuning plus 450 Mbit/s out of the server, and the Gatling study uses it", async () => {
    const presets = loadBuiltInPresets(builtInPresetsDir()).presets;
    const link = presets.find((preset) => preset.id === 'gatling-seed-link')!;
    const server = presets.find((preset) => preset.id === 'high-concurrency-server')!;
    assert.deepEqual([link.limits, link.sysctls], [server.limits, server.sysctls]);
    assert.deepEqual(link.network, { interface: 'auto', rateMbit: 450 });
    const study = (await loadStudies(builtInStudiesDir())).studies.find((entry) => entry.id === 'gatling-file')!;
    assert.equal(study.presets.server, 'gatling-seed-link');
  });

  test("the wrk seed's preset is the seed's tuning, its limits for root too (the seed's servers, started by a user, had them)", () => {
    const seed = loadBuiltInPresets(builtInPresetsDir()).presets.find((preset) => preset.id === 'wrk-seed')!;
    const seedLimits = ['soft nofile 100000', 'hard nofile 100000', 'soft nproc 100000', 'hard nproc 100000'];
    assert.deepEqual(
      seed.limits.map((limit) => `${limit.domain} ${limit.type} ${limit.item} ${limit.value}`),
      [...seedLimits.map((limit) => `* ${limit}`), ...seedLimits.map((limit) => `root ${limit}`)],
    );
    assert.deepEqual(seed.sysctls, [
      { key: 'net.ipv4.ip_local_port_range', value: '18000 65535' },
      { key: 'net.ipv4.tcp_tw_reuse', value: '1' },
    ]);
  });

  test('a broken file is skipped with a message naming it and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlab-preset-files-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ id: 'bad', name: 'Bad', sysctls: [{ key: 'net.core.somaxconn', value: 'x;y' }] }));
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ id: 'good', name: 'Good', sysctls: [{ key: 'net.core.somaxconn', value: '1024' }] }));
    const loaded = loadBuiltInPresets(dir);
    assert.deepEqual(loaded.presets.map((preset) => preset.id), ['good']);
    assert.match(loaded.problems[0]!, /^bad\.json: sysctls\.0\.value: must not contain ";"/);
  });
});

describe('user presets', () => {
  test('duplicate, edit and remove; built-ins are read-only and their names reserved', () => {
    const { presetCatalog: catalog } = freshServices();
    const seed = catalog.get('wrk-seed');
    const copy = catalog.save({ ...seed, name: 'My seed' }, { basedOn: 'wrk-seed' });
    assert.match(copy.id, /^user-\d+$/);
    assert.equal(copy.basedOn, 'wrk-seed');
    assert.equal(copy.builtIn, false);

    const edited = catalog.save({ ...copy, sysctls: [{ key: 'net.ipv4.tcp_tw_reuse', value: '2' }] }, { id: copy.id });
    assert.deepEqual(catalog.get(copy.id).sysctls, [{ key: 'net.ipv4.tcp_tw_reuse', value: '2' }]);
    assert.equal(edited.limits.length, seed.limits.length);

    assert.throws(() => catalog.save({ ...seed, name: 'WRK SEED (limits.conf 100000, port range, tw_reuse)' }), { code: 'conflict' });
    assert.throws(() => catalog.save({ ...seed, name: 'Other' }, { id: 'wrk-seed' }), { code: 'conflict', message: /duplicate it/ });
    assert.throws(() => catalog.save({ ...seed, name: 'my SEED' }), { code: 'conflict', message: /already exists/ });
    assert.throws(() => catalog.remove('wrk-seed'), { code: 'conflict' });
    assert.equal(catalog.remove(copy.id), true);
    assert.throws(() => catalog.get(copy.id), { code: 'not_found' });
  });

  test('the store is at schema version 2 or later, with the preset table', () => {
    const { db } = freshServices();
    assert.ok((db.pragma('user_version', { simple: true }) as number) >= 2);
    assert.ok(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'preset'").get());
  });
});

describe('the change journal', () => {
  test('rows go pending → applied → reverted, and pending reverts are listed per host', () => {
    const services = freshServices();
    const host = services.hosts.add({ name: 'srv', address: '10.0.0.3', port: 22, user: 'root', auth: 'agent' });
    const previous = { format: 1 as const, createdAt: 't', sysctls: { 'net.ipv4.tcp_tw_reuse': '2' }, files: { [LIMITS_DROP_IN]: null } };
    const applied = { presetName: 'wrk seed', sysctls: { 'net.ipv4.tcp_tw_reuse': '1' }, files: { [LIMITS_DROP_IN]: '* soft nofile 1\n' } };
    const id = services.changes.begin({ hostId: host.id, presetId: 'wrk-seed', keys: ['net.ipv4.tcp_tw_reuse'], previous, applied });
    assert.deepEqual(services.presets.pending().map((row) => [row.hostName, row.state]), [['srv', 'interrupted']]);
    const effects = [{ preset: 'wrk seed', kind: 'limit' as const, key: '* soft nofile', asked: '1', inEffect: '1024', took: false, reason: 'pam_limits does not apply "*" lines to root' }];
    services.changes.markApplied(id, effects);
    assert.deepEqual(services.presets.pending().map((row) => [row.state, row.presets]), [['applied', ['wrk seed']]]);
    assert.deepEqual(services.changes.unreverted(host.id)[0]!.applied, { ...applied, effects }, 'the keys as verified are kept with the row');
    services.changes.setEffects(id, [{ ...effects[0]!, inEffect: '1', took: true, reason: null }]);
    assert.equal(services.changes.unreverted(host.id)[0]!.applied.effects![0]!.took, true);
    assert.deepEqual(services.changes.unreverted(host.id)[0]!.previous, previous);
    assert.throws(() => services.hosts.remove(host.id), { code: 'conflict' });
    assert.equal(services.changes.markReverted(host.id), 1);
    assert.deepEqual(services.presets.pending(), []);
    assert.equal(services.hosts.remove(host.id), true);
  });
});
