// Tests of planning a preset against a host's state: current → new per key, files, idempotence,
// the restore record (first value wins, only our files, with their mode, owner and group) and the
// plan of a revert.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  desiredDropIns,
  extendRestoreRecord,
  fileRestored,
  NEW_FILE_META,
  planPreset,
  planRevert,
  previousOf,
  RestoreRecord,
  restoreFileMeta,
  restoreFromJournal,
  type FileMeta,
  type HostPresetState,
} from './preset-plan.ts';
import { LIMITS_DROP_IN, PresetDefinition, SYSCTL_DROP_IN } from './presets.ts';

const definition = PresetDefinition.parse({
  name: 'client',
  limits: [{ domain: 'root', type: '-', item: 'nofile', value: '16000' }],
  sysctls: [
    { key: 'net.ipv4.ip_local_port_range', value: '18000 65535' },
    { key: 'net.ipv4.tcp_tw_reuse', value: '1' },
    { key: 'net.core.netdev_max_backlog', value: '5000' },
    { key: 'fs.file-max', value: '500000' },
  ],
});

function hostState(overrides: Partial<HostPresetState> = {}): HostPresetState {
  return {
    user: 'root',
    uid: 0,
    groups: ['root'],
    sysctls: {
      'net.ipv4.ip_local_port_range': { value: '32768 60999', writable: true },
      'net.ipv4.tcp_tw_reuse': { value: '2', writable: true },
      'net.core.netdev_max_backlog': { value: null, writable: null },
      'fs.file-max': { value: '9223372036854775807', writable: false },
    },
    limitsFiles: [{ path: '/etc/security/limits.conf', text: '# nothing\n' }],
    dropIns: { [LIMITS_DROP_IN]: null, [SYSCTL_DROP_IN]: null } as HostPresetState['dropIns'],
    restore: null,
    sessionLimits: { nofile: { soft: '20000', hard: '20000' } },
    ...overrides,
  };
}

const subject = { presetId: 'user-1', hostId: 7, definition };

/** The state after the plan was carried out as written. */
function applied(state: HostPresetState): HostPresetState {
  const dropIns = desiredDropIns(definition, state);
  const sysctls = { ...state.sysctls };
  for (const row of planPreset(subject, state).sysctls) if (row.change === 'change') sysctls[row.key] = { value: row.next, writable: true };
  const plan = planPreset(subject, state);
  return {
    ...state,
    sysctls,
    dropIns: {
      [LIMITS_DROP_IN]: dropIns[LIMITS_DROP_IN] === null ? null : { text: dropIns[LIMITS_DROP_IN]!, base64: 'TElNSVRT' },
      [SYSCTL_DROP_IN]: dropIns[SYSCTL_DROP_IN] === null ? null : { text: dropIns[SYSCTL_DROP_IN]!, base64: 'U1lTQ1RM' },
    } as HostPresetState['dropIns'],
    limitsFiles: dropIns[LIMITS_DROP_IN] ? [...state.limitsFiles, { path: LIMITS_DROP_IN, text: dropIns[LIMITS_DROP_IN]! }] : state.limitsFiles,
    restore: extendRestoreRecord(state.restore, plan, state, '2026-01-01T00:00:00Z'),
  };
}

describe('planning a preset', () => {
  test('every key shows current → new, with keys the host cannot take explained', () => {
    const plan = planPreset(subject, hostState());
    assert.deepEqual(
      plan.sysctls.map((row) => [row.key, row.current, row.next, row.change, row.reason]),
      [
        ['net.ipv4.ip_local_port_range', '32768 60999', '18000 65535', 'change', null],
        ['net.ipv4.tcp_tw_reuse', '2', '1', 'change', null],
        ['net.core.netdev_max_backlog', null, '5000', 'missing', 'not visible here: hidden by a network namespace, or not in this kernel'],
        ['fs.file-max', '9223372036854775807', '500000', 'unwritable', 'not namespaced here'],
      ],
    );
    assert.deepEqual(plan.limits.map((row) => [row.label, row.current, row.next, row.change, row.loginNow]), [['root soft+hard nofile', null, '16000', 'change', '20000 / 20000']]);
    // As many changes as the table shows rows that change: two live keys and the limit (the two files make them).
    const rows = [...plan.sysctls, ...plan.limits].filter((row) => row.change === 'change').length;
    assert.equal(plan.changes, rows);
    assert.equal(plan.changes, 3);
    assert.equal(plan.noChanges, false);
  });

  test('both drop-ins are created; the sysctl one leaves out the key the kernel lacks', () => {
    const plan = planPreset(subject, hostState());
    assert.deepEqual(plan.files.map((file) => [file.path, file.action]), [[LIMITS_DROP_IN, 'create'], [SYSCTL_DROP_IN, 'create']]);
    const sysctlFile = plan.files[1]!.next!;
    assert.match(sysctlFile, /net\.ipv4\.tcp_tw_reuse = 1\n/);
    assert.match(sysctlFile, /fs\.file-max = 500000\n/);
    assert.doesNotMatch(sysctlFile, /netdev_max_backlog/);
  });

  test('applying the same preset again plans no changes', () => {
    const once = applied(hostState());
    const again = planPreset(subject, once);
    assert.equal(again.noChanges, true, JSON.stringify(again.sysctls));
    assert.ok(again.files.every((file) => file.action === 'unchanged'));
    assert.notEqual(again.planId, planPreset(subject, hostState()).planId);
    assert.equal(planPreset(subject, once).planId, again.planId, 'the same state plans the same id');
  });

  test('a "*" line is noted as unverifiable for root; an overriding later file is named', () => {
    const star = { ...subject, definition: PresetDefinition.parse({ name: 'x', limits: [{ domain: '*', type: 'soft', item: 'nofile', value: '5000' }] }) };
    assert.match(planPreset(star, hostState()).limits[0]!.note!, /does not apply "\*" lines to root/);
    const overridden = hostState({ limitsFiles: [{ path: '/etc/security/limits.d/99-site.conf', text: 'root hard nofile 1000\n' }] });
    assert.match(planPreset(subject, overridden).limits[0]!.note!, /overridden for root by \/etc\/security\/limits\.d\/99-site\.conf:1/);
  });

  test('a hard line without its soft line is pointed out', () => {
    const hardOnly = { ...subject, definition: PresetDefinition.parse({ name: 'h', limits: [{ domain: 'root', type: 'hard', item: 'nofile', value: '19000' }] }) };
    assert.ok(planPreset(hardOnly, hostState()).notes.some((note) => /root has a hard nofile line without a soft one/.test(note)));
    assert.ok(!planPreset(subject, hostState()).notes.some((note) => /without a soft one/.test(note)));
  });

  test('a key an earlier apply changed and this preset does not goes back to its original value', () => {
    const restore = { format: 1 as const, createdAt: 't', sysctls: { 'net.core.somaxconn': '4096' }, files: {} };
    const state = hostState({ restore, sysctls: { ...hostState().sysctls, 'net.core.somaxconn': { value: '65535', writable: true } } });
    const row = planPreset(subject, state).sysctls.find((candidate) => candidate.key === 'net.core.somaxconn');
    assert.deepEqual([row?.current, row?.next, row?.change, row?.origin], ['65535', '4096', 'change', 'restore']);
  });
});

describe('the restore record', () => {
  test('holds the values and files from before the first change, and keeps them on later applies', () => {
    const state = hostState();
    const record = extendRestoreRecord(null, planPreset(subject, state), state, 'now');
    assert.deepEqual(record.sysctls, { 'net.ipv4.ip_local_port_range': '32768 60999', 'net.ipv4.tcp_tw_reuse': '2' });
    assert.deepEqual(record.files, { [LIMITS_DROP_IN]: null, [SYSCTL_DROP_IN]: null });

    const later = applied(state);
    const other = { ...subject, definition: PresetDefinition.parse({ name: 'y', sysctls: [{ key: 'net.ipv4.tcp_tw_reuse', value: '0' }] }) };
    const extended = extendRestoreRecord(later.restore, planPreset(other, later), later, 'later');
    assert.equal(extended.sysctls['net.ipv4.tcp_tw_reuse'], '2', 'the first value wins');
    assert.equal(extended.createdAt, later.restore!.createdAt, 'the record keeps its first date');
  });

  test('rebuilt from the journal, the oldest value of each key wins', () => {
    const first = previousOf(planPreset(subject, hostState()), hostState());
    const second = { format: 1 as const, createdAt: '', sysctls: { 'net.ipv4.tcp_tw_reuse': '1', 'net.core.somaxconn': '4096' }, files: { [LIMITS_DROP_IN]: 'eA==' } };
    const rebuilt = restoreFromJournal([first, second])!;
    assert.equal(rebuilt.sysctls['net.ipv4.tcp_tw_reuse'], '2');
    assert.equal(rebuilt.sysctls['net.core.somaxconn'], '4096');
    assert.equal(rebuilt.files[LIMITS_DROP_IN], null);
    assert.equal(restoreFromJournal([]), null);
  });

  test('a record naming any other file, or an unsafe value, is refused', () => {
    const base = { format: 1, createdAt: 't', sysctls: {}, files: {} };
    assert.equal(RestoreRecord.safeParse({ ...base, files: { '/etc/passwd': null } }).success, false);
    assert.equal(RestoreRecord.safeParse({ ...base, sysctls: { 'net/../x': '1' } }).success, false);
    assert.equal(RestoreRecord.safeParse({ ...base, sysctls: { 'net.core.somaxconn': '1; reboot' } }).success, false);
    assert.equal(RestoreRecord.safeParse({ ...base, files: { [SYSCTL_DROP_IN]: 'not base64!' } }).success, false);
    assert.equal(RestoreRecord.safeParse({ ...base, sysctls: { 'net.core.somaxconn': '4096' }, files: { [SYSCTL_DROP_IN]: null } }).success, true);
  });
});

describe('planning a revert', () => {
  test('puts back each changed key and file, and leaves what already matches', () => {
    const state = applied(hostState());
    const revert = planRevert(state, state.restore!);
    assert.deepEqual(revert.sysctls.map((row) => [row.key, row.current, row.original, row.change]), [
      ['net.ipv4.ip_local_port_range', '18000 65535', '32768 60999', 'change'],
      ['net.ipv4.tcp_tw_reuse', '1', '2', 'change'],
    ]);
    assert.deepEqual(revert.files.map((file) => [file.path, file.action]), [[LIMITS_DROP_IN, 'remove'], [SYSCTL_DROP_IN, 'remove']]);
    const untouched = planRevert(hostState(), state.restore!);
    assert.ok(untouched.files.every((file) => file.action === 'unchanged'));
    assert.ok(untouched.sysctls.every((row) => row.change === 'same'));
  });
});

describe('mode, owner and group', () => {
  const adminMeta: FileMeta = { mode: '640', uid: 0, gid: 4, context: 'system_u:object_r:etc_t:s0' };
  /** A host where an administrator left a 0640 root:adm file at the limits drop-in's path. */
  function adminState(): HostPresetState {
    return hostState({
      dropIns: { [LIMITS_DROP_IN]: { text: 'x\n', base64: 'eAo=', meta: adminMeta }, [SYSCTL_DROP_IN]: null } as HostPresetState['dropIns'],
    });
  }

  test('the restore record keeps the metadata of each file that existed, not of new ones', () => {
    const state = adminState();
    const record = extendRestoreRecord(null, planPreset(subject, state), state, 'now');
    assert.deepEqual(record.meta, { [LIMITS_DROP_IN]: adminMeta });
    assert.equal(RestoreRecord.safeParse(JSON.parse(JSON.stringify(record))).success, true);
  });

  test('a record copying a file others may not read is itself 0600; otherwise 0644, both root:root', () => {
    const state = adminState();
    const record = extendRestoreRecord(null, planPreset(subject, state), state, 'now');
    assert.deepEqual(restoreFileMeta(record), { mode: '600', uid: 0, gid: 0, context: null });
    assert.deepEqual(restoreFileMeta({ ...record, meta: { [LIMITS_DROP_IN]: { ...adminMeta, mode: '644' } } }), NEW_FILE_META);
    assert.deepEqual(restoreFileMeta({ ...record, meta: undefined }), NEW_FILE_META);
  });

  test('rebuilt from the journal, each file keeps the metadata of the row its bytes come from; old rows have none', () => {
    const old = { format: 1 as const, createdAt: '', sysctls: {}, files: { [SYSCTL_DROP_IN]: 'eQo=' } };
    const recent = { format: 1 as const, createdAt: '', sysctls: {}, files: { [LIMITS_DROP_IN]: 'eAo=', [SYSCTL_DROP_IN]: 'eg==' }, meta: { [LIMITS_DROP_IN]: adminMeta, [SYSCTL_DROP_IN]: adminMeta } };
    const rebuilt = restoreFromJournal([old, recent])!;
    assert.deepEqual(rebuilt.files, { [SYSCTL_DROP_IN]: 'eQo=', [LIMITS_DROP_IN]: 'eAo=' });
    assert.deepEqual(rebuilt.meta, { [LIMITS_DROP_IN]: adminMeta });
  });

  test('a revert rewrites a file whose bytes match but whose recorded mode or owner does not', () => {
    const state = adminState();
    const record = extendRestoreRecord(null, planPreset(subject, state), state, 'now');
    const chmodded = hostState({ dropIns: { [LIMITS_DROP_IN]: { text: 'x\n', base64: 'eAo=', meta: { ...adminMeta, mode: '644' } }, [SYSCTL_DROP_IN]: null } as HostPresetState['dropIns'] });
    assert.deepEqual(planRevert(chmodded, record).files.map((file) => [file.path, file.action, file.meta]), [
      [LIMITS_DROP_IN, 'write', adminMeta],
      [SYSCTL_DROP_IN, 'unchanged', null],
    ]);
    assert.equal(planRevert(state, record).files[0]!.action, 'unchanged');
    // A record from before metadata was kept judges bytes only, as reverts always did.
    assert.equal(planRevert(chmodded, { ...record, meta: undefined }).files[0]!.action, 'unchanged');
  });

  test('restored means same bytes and same mode, owner and group; a context counts only where both sides have one', () => {
    const file = { text: 'x\n', base64: 'eAo=', meta: adminMeta };
    assert.equal(fileRestored(file, 'eAo=', adminMeta), true);
    assert.equal(fileRestored({ ...file, meta: { ...adminMeta, mode: '0640' } }, 'eAo=', adminMeta), true);
    assert.equal(fileRestored({ ...file, meta: { ...adminMeta, gid: 0 } }, 'eAo=', adminMeta), false);
    assert.equal(fileRestored({ ...file, meta: { ...adminMeta, context: 'system_u:object_r:tmp_t:s0' } }, 'eAo=', adminMeta), false);
    assert.equal(fileRestored({ ...file, meta: { ...adminMeta, context: null } }, 'eAo=', adminMeta), true);
    assert.equal(fileRestored({ ...file, meta: null }, 'eAo=', adminMeta), false);
    assert.equal(fileRestored(file, 'eQo=', adminMeta), false);
    assert.equal(fileRestored(null, null, null), true);
  });

  test('a record with odd metadata, or metadata for a file it does not keep, is refused', () => {
    const base = { format: 1, createdAt: 't', sysctls: {}, files: { [LIMITS_DROP_IN]: 'eAo=', [SYSCTL_DROP_IN]: null } };
    const valid = (meta: unknown) => RestoreRecord.safeParse({ ...base, meta }).success;
    assert.equal(valid({ [LIMITS_DROP_IN]: adminMeta }), true);
    assert.equal(valid({ [LIMITS_DROP_IN]: { ...adminMeta, mode: '0999' } }), false);
    assert.equal(valid({ [LIMITS_DROP_IN]: { ...adminMeta, mode: '644; reboot' } }), false);
    assert.equal(valid({ [LIMITS_DROP_IN]: { ...adminMeta, context: "x:y:z:s0'; reboot" } }), false);
    assert.equal(valid({ [LIMITS_DROP_IN]: { ...adminMeta, uid: -1 } }), false);
    assert.equal(valid({ [SYSCTL_DROP_IN]: adminMeta }), false);
    assert.equal(valid({ '/etc/passwd': adminMeta }), false);
  });
});
