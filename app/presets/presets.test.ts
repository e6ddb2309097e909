// Tests of the preset model: validation that names the field and refuses anything that could
// escape a config line or a /proc/sys path, and byte-stable drop-in rendering.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseArgs } from '../contract.ts';
import {
  limitLabel,
  normaliseDefinition,
  PresetDefinition,
  presetFieldErrors,
  presetProblems,
  renderLimitsDropIn,
  renderSysctlDropIn,
  sysctlPath,
  userPresetId,
  userPresetRowId,
  type PresetDefinitionInput,
} from './presets.ts';

const seed: PresetDefinitionInput = {
  name: 'wrk seed',
  description: 'hand tuning of the wrk benchmarks',
  limits: [
    { domain: '*', type: 'soft', item: 'nofile', value: '100000' },
    { domain: '*', type: 'hard', item: 'nofile', value: '100000' },
  ],
  sysctls: [
    { key: 'net.ipv4.ip_local_port_range', value: '18000 65535' },
    { key: 'net.ipv4.tcp_tw_reuse', value: '1' },
  ],
};

function withLimit(change: Partial<{ domain: string; type: string; item: string; value: string }>): PresetDefinitionInput {
  return { ...seed, limits: [{ domain: 'root', type: 'soft', item: 'nproc', value: '4096', ...change }] };
}

function withSysctl(key: string, value: string): PresetDefinitionInput {
  return { ...seed, sysctls: [{ key, value }] };
}

describe('preset validation', () => {
  test('the seed preset is valid', () => {
    assert.deepEqual(presetProblems(seed), []);
  });

  test('a newline in any value is refused, naming the field', () => {
    assert.deepEqual(presetFieldErrors(withSysctl('net.ipv4.tcp_tw_reuse', '1\nkernel.panic = 1')), { 'sysctls.0.value': 'must not contain line breaks' });
    assert.equal(presetFieldErrors(withLimit({ value: '10\n* hard nofile 1' }))['limits.0.value'], 'must not contain line breaks');
    assert.equal(presetFieldErrors(withLimit({ domain: 'root\n*' }))['limits.0.domain'], 'must not contain line breaks');
    assert.equal(presetFieldErrors({ ...seed, name: 'a\nb' }).name, 'must not contain line breaks or control characters');
  });

  test('";" is refused in keys, values and domains', () => {
    assert.equal(presetFieldErrors(withSysctl('net.core.somaxconn', '1; rm -rf /'))['sysctls.0.value'], 'must not contain ";"');
    assert.equal(presetFieldErrors(withSysctl('net.core.somaxconn;x', '1'))['sysctls.0.key'], 'must not contain ";"');
    assert.equal(presetFieldErrors(withLimit({ domain: 'root;' }))['limits.0.domain'], 'must not contain ";"');
  });

  test('path traversal in a sysctl key or a domain is refused', () => {
    assert.match(presetFieldErrors(withSysctl('net/../../etc/passwd', '1'))['sysctls.0.key']!, /path traversal/);
    assert.match(presetFieldErrors(withSysctl('net.ipv4..tcp_tw_reuse', '1'))['sysctls.0.key']!, /path traversal/);
    assert.match(presetFieldErrors(withLimit({ domain: '../x' }))['limits.0.domain']!, /path traversal/);
  });

  test('non-numeric values are refused where numbers are required', () => {
    assert.equal(presetFieldErrors(withSysctl('net.core.somaxconn', 'many'))['sysctls.0.value'], 'must be a number (net.core.somaxconn takes a whole number)');
    assert.equal(presetFieldErrors(withSysctl('net.ipv4.ip_local_port_range', '18000-65535'))['sysctls.0.value'], 'must be two port numbers, "low high"');
    assert.equal(presetFieldErrors(withSysctl('net.ipv4.ip_local_port_range', '65535 18000'))['sysctls.0.value'], 'the low port must not be above the high port');
    assert.equal(presetFieldErrors(withSysctl('net.ipv4.tcp_tw_reuse', '3'))['sysctls.0.value'], 'must be between 0 and 2');
    assert.equal(presetFieldErrors(withLimit({ value: 'lots' }))['limits.0.value'], 'must be a number or "unlimited"');
    assert.match(presetFieldErrors(withLimit({ item: 'nofile', value: 'unlimited' }))['limits.0.value']!, /cannot be "unlimited"/);
  });

  test('unknown limit types and items are refused, naming them', () => {
    assert.equal(presetFieldErrors(withLimit({ type: 'both' }))['limits.0.type'], 'unknown limit type "both" (use soft, hard or -)');
    assert.match(presetFieldErrors(withLimit({ item: 'nofiles' }))['limits.0.item']!, /^unknown limit item "nofiles"/);
  });

  test('repeated lines, keys and a soft limit above its hard one are refused', () => {
    const twice = { ...seed, limits: [seed.limits![0]!, { domain: '*', type: '-', item: 'nofile', value: '5' }] };
    assert.match(presetFieldErrors(twice)['limits.1']!, /again \(limits\.0 already does\)/);
    const keys = { ...seed, sysctls: [seed.sysctls![1]!, seed.sysctls![1]!] };
    assert.match(presetFieldErrors(keys)['sysctls.1.key']!, /appears twice/);
    const inverted = { ...seed, limits: [{ domain: 'root', type: 'hard', item: 'nofile', value: '10' }, { domain: 'root', type: 'soft', item: 'nofile', value: '20' }] };
    assert.match(presetFieldErrors(inverted)['limits.1.value']!, /must not be above the hard one/);
  });

  test('an empty preset, unknown fields and wrong types are refused', () => {
    assert.equal(presetFieldErrors({ name: 'x', limits: [], sysctls: [] }).sysctls, 'a preset needs at least one limit, sysctl or network setting');
    assert.match(presetFieldErrors({ ...seed, command: 'reboot' }).preset!, /unknown field "command"/);
    assert.ok(presetFieldErrors({ ...seed, sysctls: [{ key: 'net.core.somaxconn', value: 5 }] })['sysctls.0.value']);
  });

  test('unknown sysctls get a generic, safe check', () => {
    assert.deepEqual(presetProblems(withSysctl('net.ipv4.tcp_congestion_control', 'bbr')), []);
    assert.match(presetFieldErrors(withSysctl('kernel.core_pattern', '|/bin/sh'))['sysctls.0.value']!, /may hold only/);
    assert.match(presetFieldErrors(withSysctl('debug.x', '1'))['sysctls.0.key']!, /must start with one of/);
  });

  test('the contract refuses a bad definition with the field in the message', () => {
    const result = parseArgs('presets.save', { definition: withSysctl('net.core.somaxconn', '1;2') });
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.error.message, 'definition.sysctls.0.value: must not contain ";"');
    assert.equal(PresetDefinition.safeParse(seed).success, true);
  });
});

describe('drop-in rendering', () => {
  test('the limits drop-in is aligned, commented and byte-stable', () => {
    const text = renderLimitsDropIn('wrk seed', normaliseDefinition(PresetDefinition.parse(seed)).limits);
    assert.equal(
      text,
      '# pam_limits settings written by Benchlab for the preset "wrk seed".\n' +
        "# Benchlab's revert removes this file or puts back what it held before; edit the preset, not this file.\n" +
        '*  soft  nofile  100000\n' +
        '*  hard  nofile  100000\n',
    );
    assert.equal(renderLimitsDropIn('wrk seed', PresetDefinition.parse(seed).limits), text);
    assert.equal(renderLimitsDropIn('x', []), null);
  });

  test('the sysctl drop-in has one "key = value" line per key, values normalised', () => {
    const text = renderSysctlDropIn('p', [{ key: 'net.ipv4.ip_local_port_range', value: ' 18000\t65535 ' }]);
    assert.match(text!, /\nnet\.ipv4\.ip_local_port_range = 18000 65535\n$/);
    assert.equal(renderSysctlDropIn('p', []), null);
  });

  test('helpers: /proc/sys paths, labels, user preset ids', () => {
    assert.equal(sysctlPath('fs.file-max'), '/proc/sys/fs/file-max');
    assert.equal(limitLabel({ domain: '*', type: '-', item: 'nofile' }), '* soft+hard nofile');
    assert.equal(userPresetRowId(userPresetId(12)), 12);
    assert.equal(userPresetRowId('wrk-seed'), null);
  });
});
