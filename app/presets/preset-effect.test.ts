// Tests of what an apply left in effect: a verdict other than "applied" is a key that did not take
// (a line Benchlab's login cannot see included), its text names the value in effect and what was
// asked, and a session's host diff shows the keys as they took effect, not as the preset's name says.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { presetEffectsOf } from '../sessions/host-diff.ts';
import { effectsOf, effectText, effectWarning } from './preset-effect.ts';
import type { KeyVerdict } from './preset-verify.ts';

const verdicts: KeyVerdict[] = [
  { kind: 'sysctl', key: 'net.ipv4.tcp_tw_reuse', expected: '1', observed: '1', status: 'applied', reason: null },
  { kind: 'limit', key: 'root hard nofile', expected: '100000', observed: '20000', status: 'not effective', reason: 'hard limit 20000 caps it' },
  { kind: 'limit', key: '* soft nofile', expected: '100000', observed: '20000', status: 'not verified', reason: 'pam_limits does not apply "*" lines to root' },
];

describe('preset effects', () => {
  test('only an applied verdict took; the others keep the value in effect and why', () => {
    const effects = effectsOf('wrk seed', verdicts);
    assert.deepEqual(effects.map((effect) => [effect.key, effect.took, effect.inEffect, effect.reason]), [
      ['net.ipv4.tcp_tw_reuse', true, '1', null],
      ['root hard nofile', false, '20000', 'hard limit 20000 caps it'],
      ['* soft nofile', false, '20000', 'pam_limits does not apply "*" lines to root'],
    ]);
    assert.deepEqual(effects.map(effectText), [
      'net.ipv4.tcp_tw_reuse 1',
      'root hard nofile: 20000 in effect, asked 100000 (hard limit 20000 caps it)',
      '* soft nofile: 20000 in effect, asked 100000 (pam_limits does not apply "*" lines to root)',
    ]);
  });

  test("a line that does not reach Benchlab's login took when the login has the asked value anyway", () => {
    const star = { kind: 'limit' as const, key: '* soft+hard nofile', expected: '100000', observed: '100000 / 100000', status: 'not verified' as const, reason: 'pam_limits does not apply "*" lines to root' };
    assert.deepEqual(effectsOf('p', [star]).map((effect) => [effect.took, effect.reason]), [[true, null]], 'a root line beside it gave root the value');
    assert.equal(effectsOf('p', [{ ...star, observed: '100000 / 20000' }])[0]!.took, false);
    assert.equal(effectsOf('p', [{ ...star, observed: null, reason: 'no login on This machine' }])[0]!.took, false);
  });

  test('a warning only when some key did not take', () => {
    assert.equal(effectWarning(effectsOf('p', verdicts.slice(0, 1))), null);
    assert.equal(effectWarning([]), null);
    assert.match(effectWarning(effectsOf('p', verdicts))!, /^2 of 3 keys did not take effect: root hard nofile: 20000 in effect, asked 100000 .*; \* soft nofile: 20000 in effect/);
    const unread = effectsOf('p', [{ ...verdicts[1]!, observed: null, reason: null }]);
    assert.equal(effectWarning(unread), '1 of 1 key did not take effect: root hard nofile: nothing read back, asked 100000');
  });

  test("a session's host diff shows the keys in effect; older snapshots say nothing was recorded", () => {
    const base = { applied: ['wrk seed'], pending: [] };
    assert.equal(
      presetEffectsOf({ preset: { ...base, effects: effectsOf('wrk seed', verdicts.slice(0, 2)) } } as never),
      'net.ipv4.tcp_tw_reuse 1; root hard nofile: 20000 in effect, asked 100000 (hard limit 20000 caps it)',
    );
    assert.equal(presetEffectsOf({ preset: base } as never), null, 'a snapshot from before the keys were kept');
    assert.equal(presetEffectsOf({ preset: { applied: [], pending: [] } } as never), 'none');
    assert.equal(presetEffectsOf({} as never), null);
  });
});
