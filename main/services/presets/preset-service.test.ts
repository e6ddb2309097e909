// Presets on a real lab host (real pam_limits at SSH login, real per-namespace sysctls), as the
// non-root sudo user so every root step goes through sudo -S: plan, apply, verification through a
// new login, idempotence, a limit the host cannot take, revert to byte-identical files and the
// original values, a revert from the journal alone, and kill -9 mid-apply then revert after restart.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PresetProgress } from '../../../app/presets/presets-contract.ts';
import { PresetDefinition, type PresetDefinitionInput } from '../../../app/presets/presets.ts';
import { labExec, labLayout, labSsh, labSudoPassword, SUDO_USER } from '../../../tests/lab/lab.ts';
import type { ApplyChildJob } from '../../../tests/support/preset-apply-child.ts';
import { connectAsSudoUser, labSkipReason, labTargets } from '../../../tests/support/lab-hosts.ts';
import { REPO_ROOT } from '../../../tests/support/web-app.ts';
import { createServices, type Services } from '../services.ts';
import type { ScriptStep } from './host-preset-io.ts';

const skip = labSkipReason({ sudoUser: true });

const server = labLayout('default').hosts.server;
const files = {
  limits: join(server.privateCopies['/etc/security/limits.d'], '90-benchlab.conf'),
  sysctl: join(server.privateCopies['/etc/sysctl.d'], '90-benchlab.conf'),
  restore: join(server.privateCopies['/var/lib/benchlab'], 'presets-restore.json'),
};

/** Values below the 20000 hard nofile limit of these machines, so they can take effect. */
const TUNING: PresetDefinitionInput = {
  name: 'Lab tuning',
  limits: [
    { domain: SUDO_USER, type: 'soft', item: 'nofile', value: '15000' },
    { domain: SUDO_USER, type: 'hard', item: 'nofile', value: '19000' },
    { domain: SUDO_USER, type: '-', item: 'nproc', value: '30000' },
  ],
  sysctls: [
    { key: 'net.ipv4.ip_local_port_range', value: '18000 65535' },
    { key: 'net.ipv4.tcp_tw_reuse', value: '1' },
    { key: 'net.core.somaxconn', value: '8192' },
    { key: 'fs.file-max', value: '500000' },
    { key: 'net.core.netdev_max_backlog', value: '5000' },
  ],
};

const TOO_HIGH: PresetDefinitionInput = {
  name: 'Lab 100000 files',
  limits: [{ domain: SUDO_USER, type: '-', item: 'nofile', value: '100000' }],
  sysctls: [{ key: 'net.ipv4.tcp_tw_reuse', value: '0' }],
};

const LIVE_KEYS = ['net.ipv4.ip_local_port_range', 'net.ipv4.tcp_tw_reuse', 'net.core.somaxconn'];

/** A drop-in an administrator left there before Benchlab: odd bytes, no final newline. */
const ADMIN_SYSCTL_FILE = Buffer.from('# local tuning \xe9t\xe9\nnet.ipv4.tcp_fin_timeout = 30', 'latin1');

async function liveValue(key: string): Promise<string> {
  const result = await labExec('server', ['cat', `/proc/sys/${key.replace(/\./g, '/')}`]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim().replace(/\s+/g, ' ');
}

async function liveValues(): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all(LIVE_KEYS.map(async (key) => [key, await liveValue(key)] as const)));
}

/** What a brand-new SSH login of the sudo user gets, checked with OpenSSH rather than Benchlab. */
async function newLoginLimits(): Promise<string> {
  const result = await labSsh('server', 'echo "$(ulimit -Sn) $(ulimit -Hn)"', { user: SUDO_USER });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim();
}

function snapshotFiles(): Record<keyof typeof files, Buffer | null> {
  const read = (path: string) => (existsSync(path) ? readFileSync(path) : null);
  return { limits: read(files.limits), sysctl: read(files.sysctl), restore: read(files.restore) };
}

async function connectedServices(dataDir: string, hostId: number): Promise<Services> {
  const services = createServices({ dataDir, transport: 'cli', version: 'test' });
  const password = labSudoPassword()!;
  await services.connections.connect(hostId, { password, sudoPassword: password });
  return services;
}

describe('presets on a lab host, through sudo', { skip: skip ?? false, concurrency: false }, () => {
  let dataDir: string;
  let services: Services;
  let hostId: number;
  let tuningId: string;
  let tooHighId: string;
  let original: Record<string, string>;
  let originalLogin: string;

  before(async () => {
    const targets = await labTargets();
    dataDir = mkdtempSync(join(tmpdir(), 'benchlab-presets-lab-'));
    services = createServices({ dataDir, transport: 'cli', version: 'test' });
    hostId = await connectAsSudoUser(services, targets.server, 'lab-server');
    tuningId = services.presetCatalog.save(PresetDefinition.parse(TUNING)).id;
    tooHighId = services.presetCatalog.save(PresetDefinition.parse(TOO_HIGH)).id;
    // A host that already has a file where Benchlab writes: revert must give back exactly these bytes.
    writeFileSync(files.sysctl, ADMIN_SYSCTL_FILE);
    original = await liveValues();
    originalLogin = await newLoginLimits();
  });

  after(async () => {
    // Leave the shared lab as it was, whatever happened above.
    if (services && services.changes.unreverted(hostId).length > 0) await services.presets.revert(hostId).catch(() => undefined);
    await services?.close();
    for (const path of Object.values(files)) rmSync(path, { force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the plan shows current → new for every key and the files that will change', async () => {
    const plan = await services.presets.plan(tuningId, hostId);
    const row = (key: string) => plan.sysctls.find((candidate) => candidate.key === key)!;
    assert.deepEqual([row('net.ipv4.ip_local_port_range').current, row('net.ipv4.ip_local_port_range').next], [original['net.ipv4.ip_local_port_range'], '18000 65535']);
    assert.equal(row('fs.file-max').change, 'unwritable');
    assert.equal(row('fs.file-max').reason, 'not namespaced here');
    assert.deepEqual([row('net.core.netdev_max_backlog').change, row('net.core.netdev_max_backlog').reason], ['missing', 'not visible here: hidden by a network namespace, or not in this kernel']);
    assert.deepEqual(plan.limits.map((limit) => [limit.label, limit.next, limit.loginNow]), [
      ['benchlab soft nofile', '15000', originalLogin.split(' ')[0]],
      ['benchlab hard nofile', '19000', originalLogin.split(' ')[1]],
      ['benchlab soft+hard nproc', '30000', plan.limits[2]!.loginNow],
    ]);
    assert.deepEqual(plan.files.map((file) => [file.path, file.action]), [
      ['/etc/security/limits.d/90-benchlab.conf', 'create'],
      ['/etc/sysctl.d/90-benchlab.conf', 'replace'],
    ]);
    assert.equal(plan.files[1]!.current, ADMIN_SYSCTL_FILE.toString('utf8'));
    assert.equal(plan.noChanges, false);
  });

  test('apply writes the restore record, drop-ins and live values, and verifies each key', async () => {
    const steps: string[] = [];
    const stop = services.bus.subscribe('presets.progress', (progress: PresetProgress) => steps.push(progress.step));
    const plan = await services.presets.plan(tuningId, hostId);
    const result = await services.presets.apply(tuningId, hostId, plan.planId);
    stop();
    assert.equal(result.outcome, 'applied');
    assert.deepEqual(steps, ['read', 'journal', 'restore', 'files', 'live', 'verify', 'done']);

    const verdict = (key: string) => result.verdicts.find((candidate) => candidate.key === key)!;
    for (const key of LIVE_KEYS) assert.equal(verdict(key).status, 'applied', `${key}: ${verdict(key).reason}`);
    assert.deepEqual([verdict('fs.file-max').status, verdict('fs.file-max').reason], ['not effective', 'not namespaced here']);
    assert.deepEqual([verdict('net.core.netdev_max_backlog').status, verdict('net.core.netdev_max_backlog').reason], ['not effective', 'not visible here: hidden by a network namespace, or not in this kernel']);
    assert.deepEqual(
      result.verdicts.filter((candidate) => candidate.kind === 'limit').map((candidate) => [candidate.key, candidate.status, candidate.observed]),
      [
        ['benchlab soft nofile', 'applied', '15000'],
        ['benchlab hard nofile', 'applied', '19000'],
        ['benchlab soft+hard nproc', 'applied', '30000 / 30000'],
      ],
    );

    // Independently of Benchlab: the kernel and a brand-new OpenSSH login agree.
    assert.equal(await liveValue('net.ipv4.ip_local_port_range'), '18000 65535');
    assert.equal(await newLoginLimits(), '15000 19000');
    assert.equal(readFileSync(files.limits, 'utf8'), plan.files[0]!.next);
    assert.equal(readFileSync(files.sysctl, 'utf8'), plan.files[1]!.next);
    const record = JSON.parse(readFileSync(files.restore, 'utf8'));
    assert.equal(record.sysctls['net.ipv4.tcp_tw_reuse'], original['net.ipv4.tcp_tw_reuse']);
    assert.equal(record.files['/etc/sysctl.d/90-benchlab.conf'], ADMIN_SYSCTL_FILE.toString('base64'));
    assert.equal(record.files['/etc/security/limits.d/90-benchlab.conf'], null);
    assert.deepEqual(services.changes.unreverted(hostId).map((entry) => entry.status), ['applied']);
  });

  test('applying the same preset again reports no changes and leaves the files byte-identical', async () => {
    const before = snapshotFiles();
    const mtimes = [files.limits, files.sysctl, files.restore].map((path) => statSync(path).mtimeMs);
    const plan = await services.presets.plan(tuningId, hostId);
    assert.equal(plan.noChanges, true);
    const result = await services.presets.apply(tuningId, hostId, plan.planId);
    assert.equal(result.outcome, 'no changes');
    assert.deepEqual(snapshotFiles(), before);
    assert.deepEqual([files.limits, files.sysctl, files.restore].map((path) => statSync(path).mtimeMs), mtimes);
    assert.equal(services.changes.unreverted(hostId).length, 1, 'no new journal row');
  });

  test('a plan that no longer matches the host is refused before anything changes', async () => {
    await assert.rejects(services.presets.apply(tuningId, hostId, '0123456789abcdef'), { code: 'conflict', message: /changed since the plan/ });
  });

  test('nofile 100000 is reported not effective, never claimed; keys of the earlier preset go back', async () => {
    const plan = await services.presets.plan(tooHighId, hostId);
    const back = plan.sysctls.find((row) => row.key === 'net.core.somaxconn')!;
    assert.deepEqual([back.origin, back.next], ['restore', original['net.core.somaxconn']]);
    const result = await services.presets.apply(tooHighId, hostId, plan.planId);
    const [nofile] = result.verdicts.filter((verdict) => verdict.kind === 'limit');
    assert.equal(nofile!.status, 'not effective');
    assert.match(nofile!.reason!, /^hard limit \d+ caps it: it cannot be raised here/);
    assert.notEqual(nofile!.observed, '100000 / 100000');
    assert.equal(await liveValue('net.core.somaxconn'), original['net.core.somaxconn']);
  });

  test('revert restores the files byte for byte and the original live values', async () => {
    const result = await services.presets.revert(hostId);
    assert.equal(result.outcome, 'reverted', JSON.stringify(result));
    assert.ok(result.sysctls.every((row) => row.status === 'restored'));
    assert.deepEqual(snapshotFiles(), { limits: null, sysctl: ADMIN_SYSCTL_FILE, restore: null });
    assert.deepEqual(await liveValues(), original);
    assert.equal(await newLoginLimits(), originalLogin);
    assert.deepEqual(services.presets.pending(), []);
    const again = await services.presets.revert(hostId);
    assert.equal(again.outcome, 'nothing to revert');
  });

  test('without the restore file on the host, revert works from the journal', async () => {
    const plan = await services.presets.plan(tuningId, hostId);
    await services.presets.apply(tuningId, hostId, plan.planId);
    rmSync(files.restore);
    const replan = await services.presets.plan(tuningId, hostId);
    assert.ok(replan.notes.some((note) => /still carries changes/.test(note)), 'the journal still knows');
    const result = await services.presets.revert(hostId);
    assert.equal(result.outcome, 'reverted');
    assert.deepEqual(snapshotFiles(), { limits: null, sysctl: ADMIN_SYSCTL_FILE, restore: null });
    assert.deepEqual(await liveValues(), original);
  });

  test('without the sudo password, apply stops before changing anything and says why', async () => {
    const before = snapshotFiles();
    const bare = createServices({ dataDir, transport: 'cli', version: 'test' });
    try {
      await bare.connections.connect(hostId, { password: labSudoPassword()! });
      const plan = await bare.presets.plan(tuningId, hostId);
      await assert.rejects(bare.presets.apply(tuningId, hostId, plan.planId), {
        code: 'password_required',
        message: /^Writing the restore record on lab-server failed: sudo needs the password of "benchlab"\. Nothing was changed on lab-server\./,
      });
      assert.deepEqual(bare.presets.pending(), []);
      const wrong = await bare.connections.connect(hostId, { sudoPassword: 'not-the-password' });
      assert.equal(wrong.state, 'connected');
      await assert.rejects(bare.presets.plan(tuningId, hostId), { code: 'auth_failed', message: /wrong password/ });
    } finally {
      await bare.close();
    }
    assert.deepEqual(snapshotFiles(), before);
    assert.deepEqual(await liveValues(), original);
  });

  for (const stopBefore of ['set-live', 'read-back'] as const satisfies readonly ScriptStep[]) {
    test(`kill -9 mid-apply (before ${stopBefore}), then the next start shows the pending revert and reverts exactly`, async () => {
      await services.close();
      const output = await runApplyChild({ dataDir, hostId, presetId: tuningId, password: labSudoPassword()!, stopBefore });
      assert.match(output, new RegExp(`FROZEN ${stopBefore}`), output);
      // The host was left half-way: our drop-ins are there, the journal row is still pending.
      assert.equal(readFileSync(files.limits, 'utf8').includes('15000'), true);
      if (stopBefore === 'read-back') assert.equal(await liveValue('net.ipv4.ip_local_port_range'), '18000 65535');

      services = await connectedServices(dataDir, hostId);
      assert.deepEqual(services.presets.pending().map((pending) => [pending.hostName, pending.state, pending.presets]), [['lab-server', 'interrupted', ['Lab tuning']]]);
      assert.ok(services.events.recent().some((line) => /lab-server: changes pending revert/.test(line.message)));
      const result = await services.presets.revert(hostId);
      assert.equal(result.outcome, 'reverted');
      assert.deepEqual(snapshotFiles(), { limits: null, sysctl: ADMIN_SYSCTL_FILE, restore: null });
      assert.deepEqual(await liveValues(), original);
      assert.deepEqual(services.presets.pending(), []);
    });
  }
});

/** Runs the apply child until it freezes at its step, then kills it with SIGKILL; returns its output. */
async function runApplyChild(job: ApplyChildJob): Promise<string> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'tests/support/preset-apply-child.ts')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the apply child did not reach ${job.stopBefore} in time:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('FROZEN') || output.includes('APPLIED')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!output.includes('FROZEN')) reject(new Error(`the apply child exited (${code}) before ${job.stopBefore}:\n${output}`));
    });
    child.stdin.end(JSON.stringify(job));
  });
  child.kill('SIGKILL');
  await exited;
  return output;
}
