// Tests of reading pam_limits configuration and /proc/self/limits the way the kernel and PAM do.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appliesTo, compareLimitValues, configuredLine, decidingLine, parseLimitsFile, parseProcLimits } from './limits-conf.ts';

const limitsConf = {
  path: '/etc/security/limits.conf',
  text: '# comment\n*    soft  nofile  4096\n@bench hard nofile 30000 # trailing\nroot - nproc 5000\nbroken line\n',
};
const dropIn = { path: '/etc/security/limits.d/90-benchlab.conf', text: '* soft nofile 8192\n* hard nofile 16384\n' };

const root = { user: 'root', uid: 0, groups: ['root'] };
const bench = { user: 'bench', uid: 1000, groups: ['bench', 'sudo'] };

describe('limits files', () => {
  test('comments, blank and malformed lines are skipped; sources are file:line', () => {
    const lines = parseLimitsFile(limitsConf);
    assert.equal(lines.length, 3);
    assert.deepEqual(lines[1], { domain: '@bench', type: 'hard', item: 'nofile', value: '30000', source: '/etc/security/limits.conf:3' });
  });

  test('"*" and groups never apply to root; the user name always does', () => {
    assert.equal(appliesTo('*', root), false);
    assert.equal(appliesTo('@root', root), false);
    assert.equal(appliesTo('root', root), true);
    assert.equal(appliesTo('*', bench), true);
    assert.equal(appliesTo('@sudo', bench), true);
    assert.equal(appliesTo('@wheel', bench), false);
  });

  test('a later line of equal rank wins; a more specific line beats a later general one', () => {
    assert.equal(decidingLine([limitsConf, dropIn], bench, 'nofile', 'soft')?.source, '/etc/security/limits.d/90-benchlab.conf:1');
    // @bench hard (group) beats the drop-in's later "*" hard line.
    assert.equal(decidingLine([limitsConf, dropIn], bench, 'nofile', 'hard')?.value, '30000');
    assert.equal(decidingLine([limitsConf, dropIn], root, 'nofile', 'hard'), null);
    assert.equal(decidingLine([limitsConf, dropIn], root, 'nproc', 'soft')?.value, '5000');
  });

  test('the configured line of an exact domain, type "-" counting for both', () => {
    assert.equal(configuredLine([limitsConf, dropIn], '*', 'nofile', 'soft')?.value, '8192');
    assert.equal(configuredLine([limitsConf], 'root', 'nproc', 'hard')?.value, '5000');
    assert.equal(configuredLine([limitsConf], 'root', 'nofile', 'hard'), null);
  });
});

describe('/proc/self/limits', () => {
  const text = `Limit                     Soft Limit           Hard Limit           Units
Max stack size            8388608              unlimited            bytes
Max core file size        0                    unlimited            bytes
Max processes             96365                96365                processes
Max open files            20000                20000                files
Max locked memory         8388608              8388608              bytes
`;

  test('is read in limits.conf units (KB for sizes)', () => {
    assert.deepEqual(parseProcLimits(text), {
      nofile: { soft: '20000', hard: '20000' },
      nproc: { soft: '96365', hard: '96365' },
      memlock: { soft: '8192', hard: '8192' },
      stack: { soft: '8192', hard: 'unlimited' },
      core: { soft: '0', hard: 'unlimited' },
    });
  });

  test('values compare numerically with unlimited above all', () => {
    assert.equal(compareLimitValues('20000', '100000'), -1);
    assert.equal(compareLimitValues('unlimited', '100000'), 1);
    assert.equal(compareLimitValues('infinity', 'unlimited'), 0);
  });
});
