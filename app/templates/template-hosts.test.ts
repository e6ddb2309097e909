import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { benchlabRoot, describeMissing, installCommand, judgeRequirements, normalizeJavaVersion, parseHostFacts, pickJava, type HostFacts } from './template-hosts.ts';

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
    assert.deepEqual(judgeRequirements([{ runtime: 'node', minVersion: 18 }], facts({ node: null }), 24).provisionNode, { arch: 'x64', release: '24' });
    assert.deepEqual(judgeRequirements([{ runtime: 'node', minVersion: 22 }], facts(), 24).provisionNode, { arch: 'x64', release: '24' });
    assert.deepEqual(judgeRequirements([{ runtime: 'node', minVersion: 18 }], facts({ node: null, arch: 'aarch64' }), 24).provisionNode, { arch: 'arm64', release: '24' });
  });

  test('an exact Node is always Benchlab’s upload, even where the host has a newer one', () => {
    assert.deepEqual(judgeRequirements([{ runtime: 'node', version: '0.8.28' }], facts(), 24), { placeholders: {}, provisionNode: { arch: 'x64', release: '0.8.28' }, missing: [] });
    const elsewhere = judgeRequirements([{ runtime: 'node', version: '0.8.28' }], facts({ arch: 'riscv64' }), 24);
    assert.equal(elsewhere.provisionNode, null);
    assert.match(elsewhere.missing[0]!.message, /^Node\.js 0\.8\.28 \(Benchlab brings it only for x86_64 and aarch64 hosts; this one is riscv64\)$/);
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

describe('Java on the host', () => {
  const JAVAS = `${PROBE.replace('end\n', '')}java /usr/lib/jvm/java-17-openjdk-amd64/bin/java 17.0.15
java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java 25.0.3
java /usr/lib/jvm/java-8-openjdk-amd64/jre/bin/java 1.8.0_392
java /usr/lib/jvm/temurin-21-jdk-amd64/bin/java 21
end
`;

  test('every Java the probe found is read, old and new version schemes alike', () => {
    assert.deepEqual(parseHostFacts(JAVAS).java, [
      { path: '/usr/lib/jvm/java-17-openjdk-amd64/bin/java', version: '17.0.15' },
      { path: '/usr/lib/jvm/temurin-25-jdk-amd64/bin/java', version: '25.0.3' },
      { path: '/usr/lib/jvm/java-8-openjdk-amd64/jre/bin/java', version: '8.0.392' },
      { path: '/usr/lib/jvm/temurin-21-jdk-amd64/bin/java', version: '21.0.0' },
    ]);
    assert.deepEqual(parseHostFacts(PROBE).java, []);
    assert.equal(normalizeJavaVersion('25.0.3+9-LTS'), '25.0.3');
    assert.equal(normalizeJavaVersion('"11.0.2"'), '11.0.2');
    assert.equal(normalizeJavaVersion('garbage'), null);
  });

  test("PATH's Java when it is new enough, else the oldest that is", () => {
    const found = parseHostFacts(JAVAS).java;
    assert.equal(pickJava(found, 17)?.version, '17.0.15');
    assert.equal(pickJava(found, 8)?.version, '17.0.15');
    assert.equal(pickJava(found, 21)?.version, '21.0.0');
    assert.equal(pickJava(found, 25)?.version, '25.0.3');
    assert.equal(pickJava(found, 26), null);
  });

  test('the Java a requirement picked becomes {java}', () => {
    const verdict = judgeRequirements([{ runtime: 'java', minVersion: 21 }], parseHostFacts(JAVAS), 24);
    assert.deepEqual(verdict, { placeholders: { java: '/usr/lib/jvm/temurin-21-jdk-amd64/bin/java' }, provisionNode: null, missing: [] });
  });

  test('a missing or too old Java is named with what was found and the headless JRE to install', () => {
    const old = judgeRequirements([{ runtime: 'java', minVersion: 21 }], facts({ java: [{ path: '/usr/bin/java', version: '17.0.15' }] }), 24);
    assert.equal(old.missing[0]!.message, 'Java >= 21 (found Java 17 at /usr/bin/java)');
    assert.deepEqual(old.missing[0]!.install, { runtime: 'java', packageManager: 'apt-get', command: 'DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-21-jre-headless' });
    const none = judgeRequirements([{ runtime: 'java', minVersion: 8 }], facts(), 24);
    assert.equal(none.missing[0]!.message, 'Java >= 8 (no java on PATH, in JAVA_HOME or in /usr/lib/jvm)');
    assert.equal(none.missing[0]!.install?.command, 'DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-17-jre-headless');
  });

  test('headless JRE packages per package manager: the oldest LTS that is new enough', () => {
    assert.equal(installCommand('java', 'apt-get', 17), 'DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-17-jre-headless');
    assert.equal(installCommand('java', 'dnf', 18), 'dnf install -y java-21-openjdk-headless');
    assert.equal(installCommand('java', 'apk', 21), 'apk add openjdk21-jre-headless');
    assert.equal(installCommand('java', 'zypper', 25), 'zypper --non-interactive install java-25-openjdk-headless');
    assert.equal(installCommand('java', 'pacman', 8), 'pacman -S --noconfirm jre17-openjdk-headless');
  });
});
