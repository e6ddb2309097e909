// Tests of the pure readers of the probe scripts' output: outputs captured from real runs (a lab
// host over SSH, where /bin/sh is dash; busybox ash in a minimal root with no runtimes installed),
// and variants of them for what other distributions and architectures print.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseReachabilityOutput, parseSystemInfoOutput, SYSTEM_INFO_MARKER, SystemInfo, TRACKED_SYSCTLS } from './system-info.ts';

const TAKEN_AT = '2026-11-21T05:30:00.000Z';

/** Captured: the system info script over SSH on the lab's bl-server (Debian 12, dash as sh). */
const DEBIAN_LAB_SERVER = `
@@benchlab-section@@ hostname
bl-server

@@benchlab-section@@ os-release
PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
SUPPORT_URL="https://www.debian.org/support"
BUG_REPORT_URL="https://bugs.debian.org/"

@@benchlab-section@@ release-file
12.11

@@benchlab-section@@ kernel
6.18.44-fc-v657

@@benchlab-section@@ arch
x86_64

@@benchlab-section@@ cpuinfo
processor	: 0
model name	: AMD EPYC
processor	: 1
model name	: AMD EPYC

@@benchlab-section@@ lscpu

@@benchlab-section@@ nproc
2

@@benchlab-section@@ meminfo
MemTotal:       24684092 kB

@@benchlab-section@@ nofile-soft
20000

@@benchlab-section@@ nofile-hard
20000

@@benchlab-section@@ nproc-soft

@@benchlab-section@@ nproc-hard

@@benchlab-section@@ proc-limits
Max processes             96365                96365                processes 
Max open files            20000                20000                files     

@@benchlab-section@@ sysctl net.ipv4.ip_local_port_range
32768	60999

@@benchlab-section@@ sysctl net.ipv4.tcp_tw_reuse
2

@@benchlab-section@@ sysctl net.core.somaxconn
4096

@@benchlab-section@@ sysctl net.ipv4.tcp_max_syn_backlog
2048

@@benchlab-section@@ sysctl net.core.netdev_max_backlog

@@benchlab-section@@ sysctl net.ipv4.tcp_fin_timeout
60

@@benchlab-section@@ sysctl fs.file-max
2466177

@@benchlab-section@@ sysctl fs.nr_open
1048576

@@benchlab-section@@ node
v20.20.2

@@benchlab-section@@ java
openjdk version "17.0.15" 2025-04-15
OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)
OpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)

@@benchlab-section@@ apache

@@benchlab-section@@ end
`;

/**
 * Captured: the same script under busybox ash in a minimal root on the same machine: only what
 * differs from the Debian capture (Alpine's os-release, ulimit -u answers, no node/java/apache).
 */
const BUSYBOX_MINIMAL = withSections(DEBIAN_LAB_SERVER, {
  hostname: 'vm',
  'os-release': `NAME="Alpine Linux"
ID=alpine
VERSION_ID=3.20.3
PRETTY_NAME="Alpine Linux v3.20"
HOME_URL="https://alpinelinux.org/"
BUG_REPORT_URL="https://gitlab.alpinelinux.org/alpine/aports/-/issues"`,
  'release-file': '3.20.3',
  'nproc-soft': '96365',
  'nproc-hard': '96365',
  'sysctl net.core.netdev_max_backlog': '1000',
  node: '',
  java: '',
});

/** Replaces (or with `null`, drops) sections of a captured output. */
function withSections(output: string, changes: Record<string, string | null>): string {
  const parts = output.split(`\n${SYSTEM_INFO_MARKER} `);
  const rebuilt = parts.map((part, index) => {
    if (index === 0) return part;
    const name = part.slice(0, part.indexOf('\n'));
    if (!(name in changes)) return part;
    const body = changes[name];
    return body === null ? null : `${name}\n${body}\n`;
  });
  return rebuilt.filter((part): part is string => part !== null).join(`\n${SYSTEM_INFO_MARKER} `);
}

describe('parseSystemInfoOutput', () => {
  test('a Debian lab host over SSH (dash: no ulimit -u, so nproc comes from /proc/self/limits)', () => {
    // A network namespace other than the machine's shows no net.core.netdev_max_backlog: a real
    // "this kernel (here: this namespace) lacks it", which must read as null.
    const info = parseSystemInfoOutput(DEBIAN_LAB_SERVER, TAKEN_AT);
    assert.deepEqual(info, {
      hostname: 'bl-server',
      distro: 'Debian GNU/Linux 12 (bookworm)',
      kernel: '6.18.44-fc-v657',
      arch: 'x86_64',
      cpuModel: 'AMD EPYC',
      cpuCores: 2,
      memoryBytes: 24684092 * 1024,
      limits: { nofile: { soft: '20000', hard: '20000' }, nproc: { soft: '96365', hard: '96365' } },
      sysctls: {
        'net.ipv4.ip_local_port_range': '32768 60999',
        'net.ipv4.tcp_tw_reuse': '2',
        'net.core.somaxconn': '4096',
        'net.ipv4.tcp_max_syn_backlog': '2048',
        'net.core.netdev_max_backlog': null,
        'net.ipv4.tcp_fin_timeout': '60',
        'fs.file-max': '2466177',
        'fs.nr_open': '1048576',
      },
      runtimes: { node: 'v20.20.2', java: 'openjdk version "17.0.15" 2025-04-15', apache: null },
      takenAt: TAKEN_AT,
    });
    SystemInfo.parse(info);
  });

  test('busybox ash with no runtimes: runtimes are null, everything else still read', () => {
    const info = parseSystemInfoOutput(BUSYBOX_MINIMAL, TAKEN_AT);
    assert.equal(info.distro, 'Alpine Linux v3.20');
    assert.deepEqual(info.runtimes, { node: null, java: null, apache: null });
    assert.deepEqual(info.limits.nproc, { soft: '96365', hard: '96365' });
    assert.equal(info.cpuCores, 2);
    assert.deepEqual(Object.keys(info.sysctls).sort(), [...TRACKED_SYSCTLS].sort());
  });

  test('every tracked sysctl is present; one the kernel lacks is null', () => {
    const output = withSections(DEBIAN_LAB_SERVER, { 'sysctl net.ipv4.tcp_tw_reuse': '', 'sysctl fs.nr_open': null });
    const info = parseSystemInfoOutput(output, TAKEN_AT);
    assert.deepEqual(Object.keys(info.sysctls).sort(), [...TRACKED_SYSCTLS].sort());
    assert.equal(info.sysctls['net.ipv4.tcp_tw_reuse'], null);
    assert.equal(info.sysctls['fs.nr_open'], null);
    assert.equal(info.sysctls['net.core.somaxconn'], '4096');
  });

  test('unlimited limits, and ulimit output preferred over /proc/self/limits', () => {
    const output = withSections(DEBIAN_LAB_SERVER, {
      'nofile-soft': '1024',
      'nofile-hard': 'unlimited',
      'nproc-soft': '4096',
      'nproc-hard': 'unlimited',
    });
    assert.deepEqual(parseSystemInfoOutput(output, TAKEN_AT).limits, {
      nofile: { soft: '1024', hard: 'unlimited' },
      nproc: { soft: '4096', hard: 'unlimited' },
    });
  });

  test('garbage in a limit section falls back to /proc/self/limits, then to "unknown"', () => {
    const fallback = withSections(DEBIAN_LAB_SERVER, { 'nofile-soft': 'sh: ulimit: bad option' });
    assert.equal(parseSystemInfoOutput(fallback, TAKEN_AT).limits.nofile.soft, '20000');
    const neither = withSections(DEBIAN_LAB_SERVER, { 'nproc-soft': null, 'nproc-hard': null, 'proc-limits': null });
    assert.deepEqual(parseSystemInfoOutput(neither, TAKEN_AT).limits.nproc, { soft: 'unknown', hard: 'unknown' });
  });

  test('RHEL: os-release with single-quoted and escaped values', () => {
    const rhel = withSections(DEBIAN_LAB_SERVER, {
      'os-release': 'NAME="Red Hat Enterprise Linux"\nVERSION="9.4 (Plow)"\nID="rhel"\nPRETTY_NAME="Red Hat Enterprise Linux 9.4 (Plow)"',
    });
    assert.equal(parseSystemInfoOutput(rhel, TAKEN_AT).distro, 'Red Hat Enterprise Linux 9.4 (Plow)');
    const quoted = withSections(DEBIAN_LAB_SERVER, { 'os-release': "PRETTY_NAME='Custom \"quoted\" OS'" });
    assert.equal(parseSystemInfoOutput(quoted, TAKEN_AT).distro, 'Custom "quoted" OS');
    const escaped = withSections(DEBIAN_LAB_SERVER, { 'os-release': 'PRETTY_NAME="Say \\"hi\\" Linux"' });
    assert.equal(parseSystemInfoOutput(escaped, TAKEN_AT).distro, 'Say "hi" Linux');
  });

  test('no PRETTY_NAME: NAME and VERSION; no os-release: the release file; nothing: unknown', () => {
    const named = withSections(DEBIAN_LAB_SERVER, { 'os-release': 'NAME=Gentoo\nVERSION_ID=2.15' });
    assert.equal(parseSystemInfoOutput(named, TAKEN_AT).distro, 'Gentoo 2.15');
    const releaseFile = withSections(DEBIAN_LAB_SERVER, { 'os-release': '', 'release-file': 'CentOS release 6.10 (Final)' });
    assert.equal(parseSystemInfoOutput(releaseFile, TAKEN_AT).distro, 'CentOS release 6.10 (Final)');
    const nothing = withSections(DEBIAN_LAB_SERVER, { 'os-release': '', 'release-file': '' });
    assert.equal(parseSystemInfoOutput(nothing, TAKEN_AT).distro, 'unknown');
  });

  test('arm64 without "model name" in /proc/cpuinfo: the model comes from lscpu', () => {
    // The script keeps only the processor lines here: an arm64 kernel names no model.
    const graviton = withSections(DEBIAN_LAB_SERVER, {
      arch: 'aarch64',
      cpuinfo: 'processor\t: 0\nprocessor\t: 1\nprocessor\t: 2\nprocessor\t: 3',
      lscpu: 'Vendor ID:                       ARM\nModel name:                      Neoverse-N1',
      nproc: '4',
    });
    const info = parseSystemInfoOutput(graviton, TAKEN_AT);
    assert.equal(info.cpuModel, 'Neoverse-N1');
    assert.equal(info.cpuCores, 4);
  });

  test('Raspberry Pi and POWER name their CPU differently', () => {
    const pi = withSections(DEBIAN_LAB_SERVER, {
      cpuinfo: 'processor\t: 0\nprocessor\t: 1\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4',
      lscpu: '',
    });
    assert.equal(parseSystemInfoOutput(pi, TAKEN_AT).cpuModel, 'Raspberry Pi 4 Model B Rev 1.4');
    const power = withSections(DEBIAN_LAB_SERVER, { cpuinfo: 'processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported', lscpu: '' });
    assert.equal(parseSystemInfoOutput(power, TAKEN_AT).cpuModel, 'POWER9 (architected), altivec supported');
  });

  test('no nproc: cores counted from /proc/cpuinfo; nothing at all: unknown model, 0 cores, 0 bytes', () => {
    const counted = withSections(DEBIAN_LAB_SERVER, { nproc: '' });
    assert.equal(parseSystemInfoOutput(counted, TAKEN_AT).cpuCores, 2);
    const bare = withSections(DEBIAN_LAB_SERVER, { nproc: '', cpuinfo: '', lscpu: '', meminfo: '' });
    const info = parseSystemInfoOutput(bare, TAKEN_AT);
    assert.equal(info.cpuModel, 'unknown');
    assert.equal(info.cpuCores, 0);
    assert.equal(info.memoryBytes, 0);
  });

  test('runtimes: java behind a JAVA_TOOL_OPTIONS notice, Apache from Server version, odd node output ignored', () => {
    const output = withSections(DEBIAN_LAB_SERVER, {
      node: 'Usage: node [options]',
      java: 'Picked up JAVA_TOOL_OPTIONS: -Xmx512m\nopenjdk version "21.0.4" 2024-07-16 LTS\nOpenJDK Runtime Environment Temurin-21.0.4+7 (build 21.0.4+7-LTS)',
      apache: 'Server version: Apache/2.4.62 (Red Hat Enterprise Linux)\nServer built:   Aug 14 2024 00:00:00',
    });
    assert.deepEqual(parseSystemInfoOutput(output, TAKEN_AT).runtimes, {
      node: null,
      java: 'openjdk version "21.0.4" 2024-07-16 LTS',
      apache: 'Apache/2.4.62 (Red Hat Enterprise Linux)',
    });
  });

  test('an apache that prints an error instead of its version is not reported', () => {
    const output = withSections(DEBIAN_LAB_SERVER, { apache: 'apache2: Syntax error on line 80 of /etc/apache2/apache2.conf' });
    assert.equal(parseSystemInfoOutput(output, TAKEN_AT).runtimes.apache, null);
  });

  test('noise before the first marker (a login banner) and CRLF line ends are ignored', () => {
    const noisy = `Welcome to host!\r\nLast login: yesterday\r\n${DEBIAN_LAB_SERVER.replace(/\n/g, '\r\n')}`;
    const info = parseSystemInfoOutput(noisy, TAKEN_AT);
    assert.equal(info.hostname, 'bl-server');
    assert.equal(info.sysctls['net.ipv4.ip_local_port_range'], '32768 60999');
  });

  test('output that is not from the script, or stops early, is refused', () => {
    assert.throws(() => parseSystemInfoOutput('fish: Unknown command: sh\n', TAKEN_AT), /no system info sections/);
    const cut = DEBIAN_LAB_SERVER.slice(0, DEBIAN_LAB_SERVER.indexOf(`${SYSTEM_INFO_MARKER} node`));
    assert.throws(() => parseSystemInfoOutput(cut, TAKEN_AT), /incomplete \(it stops after the "sysctl fs.nr_open" section\)/);
  });
});

describe('parseReachabilityOutput', () => {
  const ids = { from: 1, to: 2 };
  const target = { address: '10.231.0.3', port: 22, timeoutSeconds: 3 };

  test('captured: bl-client to bl-server:22 with bash (median connect less median clock cost)', () => {
    const output = 'method bash\nprobe 0\nsample 1 218 18\nsample 1 83 11\nsample 1 62 15\nsample 1 59 10\nsample 1 58 10\nend\n';
    assert.deepEqual(parseReachabilityOutput(output, ids, target), { from: 1, to: 2, reachable: true, rttMs: 0.051, message: null });
  });

  test('captured: a closed port is refused', () => {
    const output =
      'method bash\nprobe 1\nerror bash: connect: Connection refused\nerror bash: line 16: /dev/tcp/10.231.0.3/1: Connection refused\nend\n';
    const result = parseReachabilityOutput(output, ids, { ...target, port: 1 });
    assert.equal(result.reachable, false);
    assert.equal(result.rttMs, null);
    assert.equal(result.message, '10.231.0.3:1 refused the connection: nothing listens on port 1, or a firewall rejects it');
  });

  test('captured: nobody answers (the watchdog killed the connect)', () => {
    const result = parseReachabilityOutput('method bash\nprobe 137\nend\n', ids, { ...target, address: '10.231.0.99' });
    assert.equal(result.reachable, false);
    assert.equal(result.message, 'no answer from 10.231.0.99:22 within 3 s: host down, or a firewall drops the traffic');
  });

  test('captured: a name the client cannot resolve', () => {
    const output =
      'method bash\nprobe 1\nerror bash: line 16: no-such-host.invalid: Temporary failure in name resolution\nerror bash: line 16: /dev/tcp/no-such-host.invalid/22: Invalid argument\nend\n';
    const result = parseReachabilityOutput(output, ids, { ...target, address: 'no-such-host.invalid' });
    assert.equal(result.message, 'the client host cannot resolve the name "no-such-host.invalid"');
  });

  test('captured: nc -z on a host without bash (refused, timed out, connected)', () => {
    const refused = parseReachabilityOutput('method nc\nprobe 1\nerror nc: connect to 127.0.0.1 port 1 (tcp) failed: Connection refused\nend\n', ids, {
      ...target,
      address: '127.0.0.1',
      port: 1,
    });
    assert.match(refused.message ?? '', /refused the connection/);
    const silent = parseReachabilityOutput(
      'method nc\nprobe 1\nerror nc: connect to 127.0.0.1 port 45999 (tcp) timed out: Operation now in progress\nend\n',
      ids,
      target,
    );
    assert.match(silent.message ?? '', /^no answer from .* within 3 s/);
    const ok = parseReachabilityOutput('method nc\nprobe 0\nsample 1 3086 1295\nsample 1 2831 1247\nsample 1 2853 1194\nsample 1 4623 1085\nsample 1 2826 1122\nend\n', ids, target);
    assert.equal(ok.reachable, true);
    assert.equal(ok.rttMs, 1.659); // median 2853 µs less median 1194 µs
    assert.match(ok.message ?? '', /includes starting nc/);
  });

  test('no bash and no usable nc: unknown, said plainly', () => {
    const result = parseReachabilityOutput('method none\nend\n', ids, target);
    assert.equal(result.reachable, false);
    assert.equal(result.rttMs, null);
    assert.match(result.message ?? '', /^unknown: .*neither bash nor an nc/);
  });

  test('no route and unreachable network', () => {
    const route = parseReachabilityOutput('method bash\nprobe 1\nerror bash: connect: No route to host\nend\n', ids, target);
    assert.equal(route.message, 'the client host has no route to 10.231.0.3');
    const network = parseReachabilityOutput('method bash\nprobe 1\nerror bash: connect: Network is unreachable\nend\n', ids, target);
    assert.match(network.message ?? '', /network unreachable/);
  });

  test('an unexplained failure keeps what the tool said', () => {
    const result = parseReachabilityOutput('method bash\nprobe 1\nerror bash: line 3: something odd happened\nend\n', ids, target);
    assert.equal(result.message, 'the client host cannot connect to 10.231.0.3:22 (something odd happened)');
  });

  test('connected but untimed, and later connects failing, are said', () => {
    const untimed = parseReachabilityOutput('method bash\nprobe 0\nend\n', ids, target);
    assert.equal(untimed.reachable, true);
    assert.equal(untimed.rttMs, null);
    assert.match(untimed.message ?? '', /no sub-second reading/);
    const flaky = parseReachabilityOutput('method bash\nprobe 0\nsample 1 100 10\nsample 0 90 10\nsample 1 120 10\nend\n', ids, target);
    assert.equal(flaky.rttMs, 0.1);
    assert.match(flaky.message ?? '', /1 of 3 timed connects failed/);
  });

  test('the round trip is never negative', () => {
    const result = parseReachabilityOutput('method bash\nprobe 0\nsample 1 5 40\nsample 1 6 41\nsample 1 5 39\nend\n', ids, target);
    assert.equal(result.rttMs, 0);
  });

  test('output from something else is not a success', () => {
    const result = parseReachabilityOutput('sh: 1: Syntax error\n', ids, target);
    assert.equal(result.reachable, false);
    assert.match(result.message ?? '', /did not run/);
  });
});
