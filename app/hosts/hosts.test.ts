// Tests of the host entry model: address, port, user and key-path validation, and form field errors.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeAddressProblem, hostFieldErrors, HostInput } from './hosts.ts';

const valid = { name: 'lab client', address: '10.0.0.2', port: 22, user: 'bench', auth: 'agent' } as const;

function withField(field: string, value: unknown): Record<string, unknown> {
  return { ...valid, [field]: value };
}

describe('host addresses', () => {
  const accepted = [
    'localhost',
    'client.lab',
    'client.lab.',
    'a-b.example.com',
    'xn--bcher-kva.example',
    '127.0.0.1',
    '10.0.0.1',
    '255.255.255.255',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    '2001:db8::8a2e:370:7334',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    '1:2:3:4:5:6:7::',
    '::ffff:10.0.0.1',
    '64:ff9b::192.0.2.33',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5::1.2.3.4',
    '[::1]',
    '[fe80::1]',
    '[::ffff:10.0.0.1]',
  ];
  for (const address of accepted) {
    test(`accepts ${JSON.stringify(address)}`, () => {
      assert.equal(describeAddressProblem(address), null);
      assert.equal(HostInput.safeParse(withField('address', address)).success, true);
    });
  }

  const refused: Array<[string, RegExp]> = [
    ['', /required/],
    ['1.2.3.256', /IPv4/],
    ['1.2.3', /IPv4/],
    ['01.2.3.4', /IPv4/],
    ['a b', /spaces/],
    ['host\nname', /line breaks/],
    ['host\tname', /spaces/],
    ['user@host', /"@"/],
    ['host:22', /IPv6|port/],
    ['10.0.0.1:22', /IPv6|port/],
    ['-bad.com', /hostname/],
    ['bad-.com', /hostname/],
    ['bad..com', /hostname/],
    ['under_score.com', /hostname/],
    [`${'a'.repeat(64)}.com`, /hostname/],
    [`${'abcdefghi.'.repeat(26)}com`, /hostname/],
    ['1::2::3', /IPv6/],
    ['1:2:3:4:5:6:7:8:9', /IPv6/],
    ['1:2:3:4:5:6:7', /IPv6/],
    ['12345::1', /IPv6/],
    ['::ffff:10.0.0.256', /IPv6/],
    ['::1.2.3.4:5', /IPv6/],
    ['1:2:3:4:5:6:7:1.2.3.4', /IPv6/],
    ['1:2:3:4:5:6::1.2.3.4', /IPv6/],
    ['1:2:3:4:5:1.2.3.4', /IPv6/],
    ['[::1', /IPv6|hostname/],
    ['[host.example]', /IPv6/],
    ['[]', /IPv6/],
    ['host;rm -rf', /spaces|hostname/],
    ['$(reboot)', /hostname/],
  ];
  for (const [address, reason] of refused) {
    test(`refuses ${JSON.stringify(address)}`, () => {
      const problem = describeAddressProblem(address);
      assert.ok(problem, `expected a problem for ${JSON.stringify(address)}`);
      assert.match(problem, reason);
      const errors = hostFieldErrors(withField('address', address));
      assert.deepEqual(Object.keys(errors), ['address']);
    });
  }

  test('surrounding whitespace is trimmed, inner line breaks are not', () => {
    const parsed = HostInput.safeParse(withField('address', '  client.lab  '));
    assert.ok(parsed.success);
    assert.equal(parsed.data.address, 'client.lab');
    assert.equal(HostInput.safeParse(withField('address', 'client\n.lab')).success, false);
    assert.equal(HostInput.safeParse(withField('address', '   ')).success, false);
  });
});

describe('host ports', () => {
  for (const port of [1, 22, 2222, 65535]) {
    test(`accepts ${port}`, () => {
      const parsed = HostInput.safeParse(withField('port', port));
      assert.ok(parsed.success);
      assert.equal(parsed.data.port, port);
    });
  }
  for (const port of [0, -1, 65536, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '22', null, undefined]) {
    test(`refuses ${String(port)} (${typeof port})`, () => {
      const errors = hostFieldErrors(withField('port', port));
      assert.deepEqual(Object.keys(errors), ['port']);
      assert.equal(typeof errors.port, 'string');
      assert.ok((errors.port ?? '').length > 0);
    });
  }
  test('out-of-range message gives the range', () => {
    assert.match(hostFieldErrors(withField('port', 65536)).port ?? '', /1 and 65535/);
    assert.match(hostFieldErrors(withField('port', 0)).port ?? '', /1 and 65535/);
    assert.match(hostFieldErrors(withField('port', 1.5)).port ?? '', /whole number/);
  });
});

describe('host user names', () => {
  for (const user of ['root', 'bench', '_svc', 'a.b-c_d', 'machine$', 'U1']) {
    test(`accepts ${JSON.stringify(user)}`, () => {
      assert.equal(HostInput.safeParse(withField('user', user)).success, true);
    });
  }
  for (const user of ['', '1abc', '-x', 'a b', 'a\nb', 'a@b', 'a:b', 'a$b', 'x'.repeat(33), '../etc']) {
    test(`refuses ${JSON.stringify(user)}`, () => {
      assert.deepEqual(Object.keys(hostFieldErrors(withField('user', user))), ['user']);
    });
  }
});

describe('host names, auth and key path', () => {
  test('name is required, bounded and single-line', () => {
    assert.match(hostFieldErrors(withField('name', '')).name ?? '', /required/);
    assert.match(hostFieldErrors(withField('name', '   ')).name ?? '', /required/);
    assert.match(hostFieldErrors(withField('name', 'x'.repeat(65))).name ?? '', /64/);
    assert.match(hostFieldErrors(withField('name', 'two\nlines')).name ?? '', /line breaks/);
    assert.equal(HostInput.safeParse(withField('name', 'x'.repeat(64))).success, true);
  });

  test('auth must be one of the known kinds', () => {
    for (const auth of ['agent', 'password']) assert.equal(HostInput.safeParse(withField('auth', auth)).success, true);
    assert.match(hostFieldErrors(withField('auth', 'kerberos')).auth ?? '', /agent, key, password/);
    assert.deepEqual(Object.keys(hostFieldErrors(withField('auth', undefined))), ['auth']);
  });

  test("auth 'key' requires a key path", () => {
    const missing = hostFieldErrors({ ...valid, auth: 'key' });
    assert.deepEqual(Object.keys(missing), ['keyPath']);
    assert.match(missing.keyPath ?? '', /required/);
    assert.deepEqual(Object.keys(hostFieldErrors({ ...valid, auth: 'key', keyPath: '' })), ['keyPath']);
    assert.deepEqual(Object.keys(hostFieldErrors({ ...valid, auth: 'key', keyPath: '   ' })), ['keyPath']);
    assert.deepEqual(hostFieldErrors({ ...valid, auth: 'key', keyPath: '~/.ssh/id_ed25519' }), {});
    // Other auth kinds do not need one.
    assert.deepEqual(hostFieldErrors({ ...valid, auth: 'password' }), {});
  });

  test('key path refuses control characters', () => {
    assert.match(hostFieldErrors({ ...valid, auth: 'key', keyPath: '/a\n/b' }).keyPath ?? '', /line breaks/);
  });

  test('unknown fields are refused and named', () => {
    const parsed = HostInput.safeParse({ ...valid, password: 'hunter2' });
    assert.equal(parsed.success, false);
    const errors = hostFieldErrors({ ...valid, password: 'hunter2' });
    const messages = Object.values(errors).join(' ');
    assert.match(messages, /password/);
    assert.equal(errors.name, undefined);
    assert.equal(errors.address, undefined);
  });

  test('a valid entry has no field errors and parses to trimmed values', () => {
    assert.deepEqual(hostFieldErrors(valid), {});
    const parsed = HostInput.safeParse({ ...valid, name: '  lab client ', user: ' bench ' });
    assert.ok(parsed.success);
    assert.equal(parsed.data.name, 'lab client');
    assert.equal(parsed.data.user, 'bench');
  });

  test('hostFieldErrors names each bad field, once', () => {
    const errors = hostFieldErrors({ name: '', address: 'a b', port: 70000, user: 'bad user', auth: 'agent' });
    assert.deepEqual(Object.keys(errors).sort(), ['address', 'name', 'port', 'user']);
    for (const message of Object.values(errors)) assert.equal(typeof message, 'string');
  });

  test('non-objects are refused', () => {
    for (const input of [null, undefined, 'host', 42, []]) {
      assert.equal(HostInput.safeParse(input).success, false);
      assert.ok(Object.keys(hostFieldErrors(input)).length > 0);
    }
  });
});
