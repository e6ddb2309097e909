// Tests of the ~/.ssh/config importer against realistic configs: OpenSSH's first-value-wins over
// matching blocks, wildcard defaults, quoting, comments, token expansion, and what is skipped.
// Agreement with what OpenSSH's own client resolves is ssh-config-openssh.test.ts's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSshConfig, SshConfigCandidate } from './ssh-config.ts';

const options = { home: '/home/ada', currentUser: 'ada' };

function parse(text: string) {
  const result = parseSshConfig(text, options);
  for (const candidate of result.candidates) SshConfigCandidate.parse(candidate);
  return result;
}

function byName(text: string) {
  return Object.fromEntries(parse(text).candidates.map((candidate) => [candidate.name, candidate]));
}

describe('parseSshConfig', () => {
  test('an empty or comment-only file gives nothing and no warnings', () => {
    assert.deepEqual(parse(''), { candidates: [], warnings: [] });
    assert.deepEqual(parse('# nothing here\n\n   # indented comment\n'), { candidates: [], warnings: [] });
  });

  test('a typical file: defaults from Host *, per-host overrides, order of appearance', () => {
    const text = `
# Personal machines
Host bench-client
    HostName 192.168.10.21
    User bench
    IdentityFile ~/.ssh/bench_ed25519

Host bench-server
    HostName 192.168.10.22
    Port 2222

Host github.com
    User git

Host *
    User ada-default
    IdentityFile ~/.ssh/id_ed25519
    ServerAliveInterval 30
    AddKeysToAgent yes
`;
    const { candidates, warnings } = parse(text);
    assert.deepEqual(warnings, []);
    assert.deepEqual(candidates, [
      { name: 'bench-client', address: '192.168.10.21', port: 22, user: 'bench', identityFile: '/home/ada/.ssh/bench_ed25519', proxyJump: null },
      { name: 'bench-server', address: '192.168.10.22', port: 2222, user: 'ada-default', identityFile: '/home/ada/.ssh/id_ed25519', proxyJump: null },
      { name: 'github.com', address: 'github.com', port: 22, user: 'git', identityFile: '/home/ada/.ssh/id_ed25519', proxyJump: null },
    ]);
  });

  test('the first obtained value wins: an early Host * beats later specific blocks', () => {
    const hosts = byName(`
Host *
  Port 2200
  User early

Host box
  HostName box.example.net
  Port 22
  User late
`);
    assert.equal(hosts.box!.port, 2200);
    assert.equal(hosts.box!.user, 'early');
    assert.equal(hosts.box!.address, 'box.example.net');
  });

  test('the same alias in two blocks merges, first value wins, listed once', () => {
    const { candidates } = parse(`
Host db
  HostName 10.0.0.5
Host web db
  HostName 10.0.0.9
  User deploy
`);
    assert.deepEqual(
      candidates.map((candidate) => [candidate.name, candidate.address, candidate.user]),
      [
        ['db', '10.0.0.5', 'deploy'],
        ['web', '10.0.0.9', 'deploy'],
      ],
    );
  });

  test('keywords are case-insensitive; Key=value and Key = value both work', () => {
    const hosts = byName(`
HOST one
  hostname=one.lab
  PORT = 2022
  user\tops
  IDENTITYFILE=~/.ssh/one
host two
  HostName= two.lab
  Port =2023
`);
    assert.deepEqual(hosts.one, { name: 'one', address: 'one.lab', port: 2022, user: 'ops', identityFile: '/home/ada/.ssh/one', proxyJump: null });
    assert.equal(hosts.two!.address, 'two.lab');
    assert.equal(hosts.two!.port, 2023);
  });

  test('Host=alias works like Host alias', () => {
    assert.deepEqual(Object.keys(byName('Host=alpha beta\n  User x\n')), ['alpha', 'beta']);
  });

  test('several patterns: one candidate per concrete alias, wildcards and negations skipped', () => {
    const { candidates } = parse(`
Host web1 web2 *.internal 10.1.?.* !bastion
  User www
Host bastion
  HostName bastion.example.com
`);
    assert.deepEqual(
      candidates.map((candidate) => candidate.name),
      ['web1', 'web2', 'bastion'],
    );
    assert.equal(candidates[0]!.user, 'www');
  });

  test('wildcard blocks lend settings to the concrete aliases they match', () => {
    const hosts = byName(`
Host app-eu app-us db.prod
  Port 22
Host app-*
  User app
  ProxyJump gw.example.com
Host *.prod
  User dba
Host a?p-eu
  IdentityFile /keys/eu
`);
    assert.equal(hosts['app-eu']!.user, 'app');
    assert.equal(hosts['app-eu']!.proxyJump, 'gw.example.com');
    assert.equal(hosts['app-eu']!.identityFile, '/keys/eu');
    assert.equal(hosts['app-us']!.identityFile, null);
    assert.equal(hosts['db.prod']!.user, 'dba');
    assert.equal(hosts['db.prod']!.proxyJump, null);
  });

  test('a negated pattern keeps a block away from that alias', () => {
    const hosts = byName(`
Host bastion internal1
  Port 22
Host * !bastion
  ProxyJump bastion
`);
    assert.equal(hosts.bastion!.proxyJump, null);
    assert.equal(hosts.internal1!.proxyJump, 'bastion');
  });

  test('host patterns match case-insensitively', () => {
    const hosts = byName(`
Host BuildBox
  Port 22
Host build*
  User builder
`);
    assert.equal(hosts.BuildBox!.user, 'builder');
  });

  test('settings before the first Host apply to every host', () => {
    const hosts = byName(`
User global-user
IdentityFile ~/.ssh/global

Host a
  User a-user
Host b
  HostName b.lab
`);
    assert.equal(hosts.a!.user, 'global-user');
    assert.equal(hosts.b!.identityFile, '/home/ada/.ssh/global');
  });

  test('HostName defaults to the alias, Port to 22, User and IdentityFile to null', () => {
    assert.deepEqual(parse('Host plain.example.org\n').candidates, [
      { name: 'plain.example.org', address: 'plain.example.org', port: 22, user: null, identityFile: null, proxyJump: null },
    ]);
  });

  test('HostName expands %h and %%', () => {
    const hosts = byName(`
Host node1 node2
  HostName %h.cluster.local
Host odd
  HostName odd%%name
`);
    assert.equal(hosts.node1!.address, 'node1.cluster.local');
    assert.equal(hosts.node2!.address, 'node2.cluster.local');
    assert.equal(hosts.odd!.address, 'odd%name');
  });

  test('IdentityFile expands ~, %h (remote host name), %u (local user), %r, %n, %p, %d and %%', () => {
    const hosts = byName(`
Host h1
  HostName h1.example.com
  IdentityFile ~/.ssh/%h_%u
Host h2
  User deploy
  Port 2200
  IdentityFile %d/keys/%n-%r-%p-100%%
Host h3
  IdentityFile ~
Host h4
  IdentityFile %r.key
`);
    assert.equal(hosts.h1!.identityFile, '/home/ada/.ssh/h1.example.com_ada');
    assert.equal(hosts.h2!.identityFile, '/home/ada/keys/h2-deploy-2200-100%');
    assert.equal(hosts.h3!.identityFile, '/home/ada');
    // No User: ssh would log in as the local user, so %r is the local user too.
    assert.equal(hosts.h4!.identityFile, 'ada.key');
  });

  test('only the first IdentityFile is kept', () => {
    const hosts = byName(`
Host k
  IdentityFile ~/.ssh/first
  IdentityFile ~/.ssh/second
Host *
  IdentityFile ~/.ssh/third
`);
    assert.equal(hosts.k!.identityFile, '/home/ada/.ssh/first');
  });

  test('a home with a trailing slash does not double it', () => {
    const { candidates } = parseSshConfig('Host r\n IdentityFile ~/.ssh/id\n', { home: '/root/', currentUser: 'root' });
    assert.equal(candidates[0]!.identityFile, '/root/.ssh/id');
  });

  test('unsupported tokens, ~otheruser and ${VAR} are kept as written with a warning', () => {
    const { candidates, warnings } = parse(`
Host t1
  IdentityFile ~/.ssh/%l_key
Host t2
  IdentityFile ~bob/.ssh/id_rsa
Host t3
  IdentityFile \${HOME}/.ssh/id
`);
    assert.equal(candidates[0]!.identityFile, '/home/ada/.ssh/%l_key');
    assert.equal(candidates[1]!.identityFile, '~bob/.ssh/id_rsa');
    assert.equal(candidates[2]!.identityFile, '${HOME}/.ssh/id');
    assert.equal(warnings.length, 3);
    assert.match(warnings[0]!, /line 3: .*%l/);
    assert.match(warnings[1]!, /line 5: .*~bob/);
    assert.match(warnings[2]!, /line 7: .*environment variables/);
  });

  test('quoted values keep their spaces; escaped quotes survive', () => {
    const hosts = byName(`
Host "my laptop" 'other box'
  HostName laptop.local
  IdentityFile "~/.ssh/my key"
Host q
  IdentityFile "/keys/with \\"quote\\""
Host e
  IdentityFile /keys/with\\ space
`);
    assert.deepEqual(Object.keys(hosts), ['my laptop', 'other box', 'q', 'e']);
    assert.equal(hosts['my laptop']!.identityFile, '/home/ada/.ssh/my key');
    assert.equal(hosts.q!.identityFile, '/keys/with "quote"');
    assert.equal(hosts.e!.identityFile, '/keys/with space');
  });

  test('unbalanced quotes: the line is ignored with a warning', () => {
    const { candidates, warnings } = parse('Host a\n  User "broken\n  Port 2022\n');
    assert.equal(candidates[0]!.user, null);
    assert.equal(candidates[0]!.port, 2022);
    assert.deepEqual(warnings, ['line 2: unbalanced quotes; line ignored']);
  });

  test('a broken Host line does not leak its settings into the block before', () => {
    const { candidates, warnings } = parse('Host good\n  Port 2000\nHost "bad\n  User nobody-should-see-this\n');
    assert.deepEqual(candidates.map((candidate) => [candidate.name, candidate.user]), [['good', null]]);
    assert.equal(warnings.length, 1);
  });

  test('trailing comments are dropped; a # inside a word is kept', () => {
    const hosts = byName(`
Host c  # the c box
  HostName c.lab   # comment after value
  User  me#you
  Port 2022 #port
`);
    assert.deepEqual(hosts.c, { name: 'c', address: 'c.lab', port: 2022, user: 'me#you', identityFile: null, proxyJump: null });
  });

  test('CRLF line endings, tabs, indentation and a BOM are fine', () => {
    const text = '\uFEFFHost win\r\n\tHostName win.lab\r\n\t\tUser\tadmin\r\n';
    assert.deepEqual(parse(text).candidates, [
      { name: 'win', address: 'win.lab', port: 22, user: 'admin', identityFile: null, proxyJump: null },
    ]);
  });

  test('ProxyJump is kept as written; none means no jump and blocks later values', () => {
    const hosts = byName(`
Host inner
  ProxyJump ops@bastion.example.com:2222,second-hop
Host direct
  ProxyJump none
Host *.lab lab1 direct
  ProxyJump gateway
`);
    assert.equal(hosts.inner!.proxyJump, 'ops@bastion.example.com:2222,second-hop');
    assert.equal(hosts.direct!.proxyJump, null);
    assert.equal(hosts.lab1!.proxyJump, 'gateway');
  });

  test('ProxyCommand competes with ProxyJump (first wins) and is reported, not run', () => {
    const { candidates, warnings } = parse(`
Host old
  ProxyCommand ssh -W %h:%p bastion
Host new
  ProxyJump bastion
Host *
  ProxyCommand nc -X 5 -x proxy:1080 %h %p
`);
    assert.equal(candidates[0]!.proxyJump, null);
    assert.equal(candidates[1]!.proxyJump, 'bastion');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /line 3: "old" uses a ProxyCommand/);
  });

  test('Match blocks are skipped with a warning; Match all returns to every host', () => {
    const { candidates, warnings } = parse(`
Host corp1
  HostName corp1.example.com
Match host corp1 exec "test -f /tmp/vpn"
  User vpn-user
  ProxyJump vpn-gw
Match all
  User everyone
`);
    assert.equal(candidates[0]!.user, 'everyone');
    assert.equal(candidates[0]!.proxyJump, null);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^line 4: "Match host corp1 exec test -f \/tmp\/vpn" is not evaluated/);
  });

  test('a Host line after a Match block starts applying settings again', () => {
    const hosts = byName(`
Match user root
  Port 9999
Host after
  Port 2020
`);
    assert.equal(hosts.after!.port, 2020);
  });

  test('Include is not followed but reported', () => {
    const { candidates, warnings } = parse(`
Include ~/.ssh/config.d/*
Include /etc/ssh/extra.conf other.conf
Host here
`);
    assert.deepEqual(candidates.map((candidate) => candidate.name), ['here']);
    assert.deepEqual(warnings, [
      'line 2: "Include ~/.ssh/config.d/*" is not followed; hosts defined in included files are not listed',
      'line 3: "Include /etc/ssh/extra.conf other.conf" is not followed; hosts defined in included files are not listed',
    ]);
  });

  test('invalid ports skip the entry with a warning; the other entries stay', () => {
    const { candidates, warnings } = parse(`
Host ok
  Port 2222
Host words
  Port ssh-port
Host zero
  Port 0
Host big
  Port 70000
Host neg
  Port -1
Host frac
  Port 22.5
`);
    assert.deepEqual(candidates.map((candidate) => candidate.name), ['ok']);
    assert.equal(warnings.length, 5);
    assert.match(warnings[0]!, /^line 5: Port "ssh-port" is not a number from 1 to 65535; host "words" skipped$/);
    assert.match(warnings[2]!, /"70000"/);
  });

  test('an invalid Port in Host * skips only the hosts that obtain it', () => {
    const { candidates, warnings } = parse(`
Host has-port
  Port 2022
Host no-port
  User x
Host *
  Port nope
`);
    assert.deepEqual(candidates.map((candidate) => candidate.name), ['has-port']);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /line 7: .*"no-port" skipped/);
  });

  test('a keyword without a value, or with extra values, is reported', () => {
    const { candidates, warnings } = parse('Host v\n  HostName\n  User a b\n');
    assert.equal(candidates[0]!.address, 'v');
    assert.equal(candidates[0]!.user, 'a');
    assert.deepEqual(warnings, ['line 2: HostName has no value; ignored', 'line 3: User takes one value; "b" ignored']);
  });

  test('a Host without patterns is reported and its settings ignored', () => {
    const { candidates, warnings } = parse('Host\n  User ghost\nHost real\n');
    assert.deepEqual(candidates.map((candidate) => [candidate.name, candidate.user]), [['real', null]]);
    assert.deepEqual(warnings, ['line 1: Host without a pattern; its block is ignored']);
  });

  test('a file of only wildcard blocks gives no candidates', () => {
    assert.deepEqual(parse('Host *\n  User x\nHost *.corp\n  Port 2222\n').candidates, []);
  });

  test('other options are ignored silently, including ones with odd values', () => {
    const { candidates, warnings } = parse(`
Host x
  ForwardAgent yes
  LocalForward 8080 localhost:80
  SendEnv LANG LC_*
  StrictHostKeyChecking accept-new
  RemoteCommand "tmux new -A"
`);
    assert.equal(candidates.length, 1);
    assert.deepEqual(warnings, []);
  });

  test('IPv6 HostName and IdentityFile none', () => {
    const hosts = byName('Host v6\n  HostName fe80::1\n  IdentityFile none\n');
    assert.equal(hosts.v6!.address, 'fe80::1');
    assert.equal(hosts.v6!.identityFile, null);
  });

  // How fast is a figure of npm run bench (the same config), not asserted here.
  test('a large generated config parses', () => {
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) lines.push(`Host node${i}`, `  HostName 10.0.${Math.floor(i / 250)}.${i % 250}`, `  User u${i}`);
    lines.push('Host node*', '  IdentityFile ~/.ssh/cluster', 'Host *', '  Port 2222');
    const { candidates } = parse(lines.join('\n'));
    assert.equal(candidates.length, 2000);
    assert.equal(candidates[1999]!.identityFile, '/home/ada/.ssh/cluster');
    assert.equal(candidates[1999]!.port, 2222);
  });
});
