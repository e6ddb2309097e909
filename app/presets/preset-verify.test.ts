// Tests of the verdicts: applied only when read back (sysctls) or seen by a new login (limits);
// otherwise "not effective" with the reason, or "not verified" — never claimed.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SysctlPlanRow } from './preset-plan.ts';
import { explainWriteFailure, judgeLimits, judgeSysctl, type LimitEvidence } from './preset-verify.ts';
import { LIMITS_DROP_IN } from './presets.ts';

const row = (change: SysctlPlanRow['change'], key = 'net.ipv4.tcp_tw_reuse', reason: string | null = null): SysctlPlanRow => ({
  key,
  current: '2',
  next: '1',
  change,
  origin: 'preset',
  reason,
});

describe('sysctl verdicts', () => {
  test('applied when the kernel reads the new value back', () => {
    assert.equal(judgeSysctl(row('change'), { ok: true, error: null }, '1').status, 'applied');
    assert.equal(judgeSysctl(row('same'), undefined, '1').status, 'applied');
  });

  test('a missing key, a refused write and a different read-back are not effective, with reasons', () => {
    assert.deepEqual(
      [judgeSysctl(row('missing', 'net.core.netdev_max_backlog'), undefined, null).status, judgeSysctl(row('missing'), undefined, null).reason],
      ['not effective', 'not visible here: hidden by a network namespace, or not in this kernel'],
    );
    const denied = judgeSysctl(row('change', 'fs.file-max'), { ok: false, error: 'sysctl: permission denied on key "fs.file-max"' }, '9223372036854775807');
    assert.deepEqual([denied.status, denied.reason], ['not effective', 'not namespaced here']);
    assert.equal(judgeSysctl(row('unwritable', 'fs.file-max', 'not namespaced here'), undefined, '5').reason, 'not namespaced here');
    assert.equal(judgeSysctl(row('change'), { ok: true, error: null }, '0').reason, 'the kernel reads back "0"');
  });

  test('write failures are explained in words', () => {
    assert.equal(explainWriteFailure('net.core.somaxconn', 'Read-only file system'), 'read-only on this host');
    assert.equal(explainWriteFailure('net.x', 'sysctl: cannot stat /proc/sys/net/x: No such file or directory'), 'key not in this kernel');
    assert.match(explainWriteFailure('net.x', 'setting key "net.x": Invalid argument'), /refused the value/);
  });
});

describe('limit verdicts', () => {
  const root = { user: 'root', uid: 0, groups: [] };
  const evidence = (dropIn: string, fresh: LimitEvidence['fresh'], more: Partial<LimitEvidence> = {}): LimitEvidence => ({
    files: [{ path: LIMITS_DROP_IN, text: dropIn }],
    login: root,
    fresh,
    freshProblem: null,
    before: { nofile: { soft: '20000', hard: '20000' } },
    nrOpen: '1048576',
    ...more,
  });

  test('applied when a new login gets the value', () => {
    const limits = [{ domain: 'root', type: '-', item: 'nofile', value: '16000' }];
    const [verdict] = judgeLimits(limits, evidence('root - nofile 16000\n', { nofile: { soft: '16000', hard: '16000' } }));
    assert.deepEqual([verdict!.status, verdict!.observed], ['applied', '16000 / 16000']);
  });

  test('100000 above a hard limit that cannot be raised is not effective, with the reason', () => {
    const limits = [
      { domain: 'root', type: 'soft', item: 'nofile', value: '100000' },
      { domain: 'root', type: 'hard', item: 'nofile', value: '100000' },
    ];
    const verdicts = judgeLimits(limits, evidence('root soft nofile 100000\nroot hard nofile 100000\n', { nofile: { soft: '20000', hard: '20000' } }));
    assert.deepEqual(verdicts.map((verdict) => verdict.status), ['not effective', 'not effective']);
    assert.match(verdicts[0]!.reason!, /soft limit cannot exceed the hard limit in effect \(20000\)/);
    assert.match(verdicts[1]!.reason!, /^hard limit 20000 caps it: it cannot be raised here/);
    const overNrOpen = judgeLimits([limits[1]!], evidence('root hard nofile 100000\n', { nofile: { soft: '1024', hard: '20000' } }, { nrOpen: '50000' }));
    assert.match(overNrOpen[0]!.reason!, /above fs\.nr_open \(50000\)/);
  });

  test('a soft line alone that a login did not take says to add the hard line', () => {
    const [verdict] = judgeLimits([{ domain: 'root', type: 'soft', item: 'nofile', value: '13000' }], evidence('root soft nofile 13000\n', { nofile: { soft: '20000', hard: '20000' } }));
    assert.equal(verdict!.status, 'not effective');
    assert.match(verdict!.reason!, /^a new login still gets 20000: .*add a hard nofile line$/);
  });

  test('a line that does not apply to the login is not verified, never claimed', () => {
    const [star] = judgeLimits([{ domain: '*', type: 'soft', item: 'nofile', value: '5000' }], evidence('* soft nofile 5000\n', { nofile: { soft: '20000', hard: '20000' } }));
    assert.equal(star!.status, 'not verified');
    assert.match(star!.reason!, /does not apply "\*" lines to root/);
    const [noLogin] = judgeLimits([{ domain: 'root', type: 'soft', item: 'nofile', value: '5000' }], evidence('root soft nofile 5000\n', null, { freshProblem: 'no login on This machine' }));
    assert.deepEqual([noLogin!.status, noLogin!.reason], ['not verified', 'no login on This machine']);
  });

  test('a line overridden by another file is not effective, naming the file', () => {
    const files = [
      { path: LIMITS_DROP_IN, text: 'root soft nofile 5000\n' },
      { path: '/etc/security/limits.d/99-site.conf', text: 'root soft nofile 3000\n' },
    ];
    const [verdict] = judgeLimits([{ domain: 'root', type: 'soft', item: 'nofile', value: '5000' }], evidence('', { nofile: { soft: '3000', hard: '20000' } }, { files }));
    assert.equal(verdict!.status, 'not effective');
    assert.match(verdict!.reason!, /overridden for root by \/etc\/security\/limits\.d\/99-site\.conf:1/);
  });
});
