import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { benchlabRoot, describeMissing, installCommand, judgeRequirements, parseHostFacts, type HostFacts } from './template-hosts.ts';

const PROBE = `home /root
user root
uid 0
hostname bl-server
arch x86_64
tool setsid
tool awk
tool curl
pm apt-get
node /usr/bin/node v20.19.2
apache2 /usr/sbin/apache2 /usr/lib/apache2/modules Apache/2.4.62 (Debian)
end
`;

function facts(overrides: Partial<HostFacts> = {}): HostFacts {
  return { ...parseHostFacts(PROBE), ...overrides };
}

describe('host facts', () => {
  test('the probe output is read', () => {
    const parsed = parseHostFacts(PROBE);
    assert.equal(parsed.hostname, 'bl-server');
    assert.equal(parsed.uid, 0);
    assert.deepEqual([...parsed.tools], ['setsid', 'awk', 'curl']);
    assert.equal(parsed.packageManager, 'apt-get');
    assert.deepEqual(parsed.node, { path: '/usr/bin/node', version: '20.19.2' });
    assert.deepEqual(parsed.apache2, { path: '/usr/sbin/apache2', modules: '/usr/lib/apache2/modules', version: '2.4.62' });
  });

  test('a probe cut short is refused', () => {
    assert.throws(() => parseHostFacts('home /root\nuid 0\n'), /did not complete/);
  });

  test("Benchlab's folder: /var/lib/benchlab for root, ~/.benchlab for users", () => {
    assert.equal(benchlabRoot({ uid: 0, home: '/root' }), '/var/lib/benchlab');
    assert.equal(benchlabRoot({ uid: 1000, home: '/home/ann/' }), '/home/ann/.benchlab');
  });
});

describe('runtime requirements', () => {
  test('a host with what is needed provides the placeholders', () => {
    const verdict = judgeRequirements([{ runtime: 'node', minVersion: 18 }, { runtime: 'apache2' }], facts(), 24);
    assert.deepEqual(verdict, {
      placeholders: { node: '/usr/bin/node', apache2: '/usr/sbin/apache2', 'apache2.modules': '/usr/lib/apache2/modules' },
      provisionNode: null,
      missing: [],
    });
  });

  test('a missing or too old Node is provided by the portable one where an npm package exists', () => {
    assert.equal(judgeRequirements([{ runtime: 'node', minVersion: 18 }], facts({ node: null }), 24).provisionNode, 'x64');
    assert.equal(judgeRequirements([{ runtime: 'node', minVersion: 22 }], facts(), 24).provisionNode, 'x64');
    assert.equal(judgeRequirements([{ runtime: 'node', minVersion: 18 }], facts({ node: null, arch: 'aarch64' }), 24).provisionNode, 'arm64');
  });

  test('what cannot be provided is said exactly, with the install command', () => {
    const verdict = judgeRequirements([{ runtime: 'node', minVersion: 18 }, { runtime: 'apache2' }], facts({ node: { path: '/usr/bin/node', version: '16.20.2' }, arch: 'riscv64', apache2: null }), 24);
    assert.equal(verdict.missing.length, 2);
    assert.equal(verdict.missing[0]!.message, 'Node.js >= 18 (found v16.20.2 at /usr/bin/node); Benchlab has no portable Node for riscv64');
    assert.equal(verdict.missing[1]!.message, 'Apache httpd (apache2 or httpd, not found on PATH or in /usr/sbin)');
    assert.deepEqual(verdict.missing[1]!.install, { runtime: 'apache2', packageManager: 'apt-get', command: 'DEBIAN_FRONTEND=noninteractive apt-get install -y apache2' });
    assert.equal(
      describeMissing('bl-server', verdict.missing),
      'bl-server is missing Node.js >= 18 (found v16.20.2 at /usr/bin/node); Benchlab has no portable Node for riscv64 and Apache httpd (apache2 or httpd, not found on PATH or in /usr/sbin). Benchlab can install it with: DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs; DEBIAN_FRONTEND=noninteractive apt-get install -y apache2',
    );
    const noManager = judgeRequirements([{ runtime: 'apache2' }], facts({ apache2: null, packageManager: null }), 24);
    assert.match(describeMissing('h', noManager.missing), /No supported package manager was found: install it by hand\./);
  });

  test('Apache without its modules folder is named as such', () => {
    const verdict = judgeRequirements([{ runtime: 'apache2' }], facts({ apache2: { path: '/opt/httpd/bin/httpd', modules: null, version: '2.4.1' } }), 24);
    assert.match(verdict.missing[0]!.message, /the Apache modules \(mod_mpm_event\.so and friends\) next to \/opt\/httpd\/bin\/httpd/);
  });

  test('install commands per package manager', () => {
    assert.equal(installCommand('apache2', 'dnf'), 'dnf install -y httpd');
    assert.equal(installCommand('apache2', 'apk'), 'apk add apache2');
    assert.equal(installCommand('node', 'zypper'), 'zypper --non-interactive install nodejs');
    assert.equal(installCommand('apache2', 'pacman'), 'pacman -S --noconfirm apache');
  });
});
