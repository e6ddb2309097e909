// Fault: kill -9 during a preset apply. The soak server host first gets an administrator's files
// where Benchlab writes its drop-ins, with modes and owners of their own (a 0600 root:root sysctl
// file, a 0640 root:adm limits file); a back end in a child process (tests/support/preset-apply-
// child.ts) applies a preset through sudo and is killed before a step picked at random. The next
// start must show the pending revert, and revert must give back the bytes, mode and owner of each
// file and the live values of the sysctls.

import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PresetDefinition } from '../../app/presets/presets.ts';
import { SCRIPT_STEPS } from '../../main/services/presets/host-preset-io.ts';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { createServices } from '../../main/services/services.ts';
import { labExec, labLayout, labSudoPassword, SUDO_USER } from '../lab/lab.ts';
import type { LabInstance } from '../lab/layout.ts';
import type { ApplyChildJob } from '../support/preset-apply-child.ts';
import { within } from '../support/until.ts';
import { faultFigures, machineLoad, type FaultFigures, type RevertCheck } from './figures.ts';
import { SETTLE_MS } from './kill-backend.ts';
import type { Random } from './seeded-random.ts';
import { leftovers, type SoakLab } from './soak-lab.ts';
import { integrityOk } from './store-check.ts';

const APPLY_CHILD = resolve(import.meta.dirname, '..', 'support', 'preset-apply-child.ts');
const ADM_GID = 4;

/** Values a lab host can take (its hard nofile limit is 20000; only net.* sysctls are writable). */
const TUNING = PresetDefinition.parse({
  name: 'Soak tuning',
  limits: [
    { domain: SUDO_USER, type: 'soft', item: 'nofile', value: '15000' },
    { domain: SUDO_USER, type: 'hard', item: 'nofile', value: '19000' },
  ],
  sysctls: [
    { key: 'net.ipv4.ip_local_port_range', value: '18000 65535' },
    { key: 'net.ipv4.tcp_tw_reuse', value: '1' },
    { key: 'net.core.somaxconn', value: '8192' },
  ],
});
const LIVE_KEYS = TUNING.sysctls.map((row) => row.key);

interface AdminFile {
  path: string;
  bytes: Buffer;
  mode: number;
  uid: number;
  gid: number;
}

function adminFiles(instance: LabInstance): AdminFile[] {
  const server = labLayout(instance).hosts.server;
  return [
    { path: join(server.privateCopies['/etc/sysctl.d'], '90-benchlab.conf'), bytes: Buffer.from('# kept by the administrator\nnet.ipv4.tcp_fin_timeout = 30', 'latin1'), mode: 0o600, uid: 0, gid: 0 },
    { path: join(server.privateCopies['/etc/security/limits.d'], '90-benchlab.conf'), bytes: Buffer.from('# kept by the administrator\n* soft core 0\n', 'latin1'), mode: 0o640, uid: 0, gid: ADM_GID },
  ];
}

function restoreRecord(instance: LabInstance): string {
  return join(labLayout(instance).hosts.server.privateCopies['/var/lib/benchlab'], 'presets-restore.json');
}

async function liveValues(instance: LabInstance): Promise<string> {
  const result = await labExec('server', ['cat', ...LIVE_KEYS.map((key) => `/proc/sys/${key.replace(/\./g, '/')}`)], { instance });
  if (result.code !== 0) throw new Error(`reading the server's sysctls: ${result.stderr}`);
  return result.stdout.replace(/\s+/g, ' ').trim();
}

function compare(files: readonly AdminFile[]): RevertCheck & { liveValues: false } {
  const now = files.map((file) => (existsSync(file.path) ? { bytes: readFileSync(file.path), stat: statSync(file.path) } : null));
  return {
    bytes: files.every((file, index) => now[index]?.bytes.equals(file.bytes) ?? false),
    mode: files.every((file, index) => ((now[index]?.stat.mode ?? 0) & 0o7777) === file.mode),
    owner: files.every((file, index) => now[index]?.stat.uid === file.uid && now[index]?.stat.gid === file.gid),
    liveValues: false,
  };
}

export async function inject(lab: SoakLab, random: Random, repeat: number): Promise<FaultFigures> {
  const password = labSudoPassword();
  if (!password) throw new Error('the lab did not create its sudo user here: presets need it');
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-soak-preset-'));
  const files = adminFiles(lab.instance);
  try {
    for (const file of files) {
      writeFileSync(file.path, file.bytes);
      chmodSync(file.path, file.mode);
      chownSync(file.path, file.uid, file.gid);
    }
    const liveBefore = await liveValues(lab.instance);
    const setup = createServices({ dataDir, transport: 'cli', version: 'soak' });
    let hostId: number;
    let presetId: string;
    try {
      const host = setup.hosts.add({ name: 'lab-server', address: lab.targets.server.address, port: 22, user: SUDO_USER, auth: 'password' });
      setup.hosts.pinKey(host.id, lab.targets.server.pinnedFingerprint!);
      hostId = host.id;
      presetId = setup.presetCatalog.save(TUNING).id;
    } finally {
      await setup.close();
    }
    const stopBefore = random.pick(SCRIPT_STEPS);
    const loadAverage = machineLoad();
    await applyAndKill({ dataDir, hostId, presetId, password, stopBefore });
    const changedByTheApply = existsSync(restoreRecord(lab.instance)) || !compare(files).bytes || (await liveValues(lab.instance)) !== liveBefore;

    // The next start: the journal shows the apply pending, and revert puts the host back.
    const services = createServices({ dataDir, transport: 'cli', version: 'soak' });
    let pendingShown: boolean;
    let outcome: string;
    try {
      await services.connections.connect(hostId, { password, sudoPassword: password });
      pendingShown = services.presets.pending().some((pending) => pending.hostId === hostId);
      outcome = (await services.presets.revert(hostId)).outcome;
    } finally {
      await services.close();
    }
    const revert = { ...compare(files), liveValues: (await liveValues(lab.instance)) === liveBefore };
    const left = await leftovers(lab, agentOwner(join(dataDir, 'benchlab.db')), SETTLE_MS);
    if (existsSync(restoreRecord(lab.instance))) left.push('server: the restore record presets-restore.json');
    return faultFigures({
      repeat,
      injectedAt: `before the step ${stopBefore}`,
      integrityOk: integrityOk(dataDir),
      leftovers: left,
      revert,
      loadAverage,
      extra: {
        // Killed before it changed anything, there is nothing to show.
        'pending revert shown on the next start (host changed)': changedByTheApply ? pendingShown : null,
        'revert outcome': outcome,
      },
    });
  } finally {
    for (const file of files) rmSync(file.path, { force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the apply child until it freezes before its step (or applies everything), then kills it with SIGKILL. */
async function applyAndKill(job: ApplyChildJob): Promise<void> {
  const child = spawn(process.execPath, [APPLY_CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const reached = new Promise<void>((resolveReached, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('FROZEN') || output.includes('APPLIED')) resolveReached();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the apply child exited (${code}) before ${job.stopBefore}:\n${output}`)));
  });
  child.stdin.end(JSON.stringify(job));
  try {
    await within(reached, `the apply child to reach ${job.stopBefore}`, 30_000);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}
