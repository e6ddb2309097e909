// Older native engine binaries on a real client host (lab instance `enginehosts`): two stale
// `benchlab-engine-<hash>` files and a third one running (a copy of `sleep` under that name, as
// another Benchlab's agent would run an older engine) are planted beside the agent; getting the
// host ready for the native engine removes the two stale ones, keeps the running one and the current
// binary, and says so on the log with the space freed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nativeEngineArch } from '../../app/runs/engine-choice.ts';
import { prepareAgentHost, prepareNativeEngine } from '../../main/services/runs/agent-host.ts';
import { engineBinary } from '../../main/services/runs/engine-binary.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'enginehosts';
const STALE = ['benchlab-engine-5a1e00000001', 'benchlab-engine-5a1e00000002'];
const RUNNING = 'benchlab-engine-5a1e0000000f';

describe('older native engine binaries on a client host', { skip: skip ?? false }, () => {
  let lab: LabBackend;
  let sleeper: string | null = null;

  before(async () => {
    lab = await openLabBackend(INSTANCE, 'benchlab-enginehosts-lab-');
  });

  after(async () => {
    if (sleeper) await labExec('client', ['kill', sleeper], { instance: INSTANCE });
    await lab?.close();
  });

  /** Runs a shell script on the lab client as root, failing the test on a non-zero exit. */
  async function onClient(script: string): Promise<string> {
    const result = await labExec('client', ['sh', '-c', script], { instance: INSTANCE });
    assert.equal(result.code, 0, `${script}: ${result.stderr}`);
    return result.stdout;
  }

  test('the stale binaries go, the one in use and the current one stay, and the log says what was freed', async (t) => {
    const transport = lab.services.connections.transportFor(lab.clientId);
    const host = await prepareAgentHost(transport, 'lab-client', { portableNode: lab.services.templates.portableNodeCache });
    const current = await engineBinary(nativeEngineArch(host.machine)!);
    if (!current.ok) {
      // CI builds the engine and requires it: there, a missing binary fails instead of skipping.
      if (process.env.BENCHLAB_REQUIRE_ENGINE === '1') assert.fail(`no native engine to upload: ${current.reason}`);
      return t.skip(`no native engine to upload: ${current.reason}`);
    }
    const dir = host.agentDir;
    await onClient(`cd ${dir} && head -c 300000 /dev/zero > ${STALE[0]} && head -c 200000 /dev/zero > ${STALE[1]} && chmod 755 ${STALE.join(' ')} && cp /bin/sleep ${RUNNING}`);
    // Started detached, its output nowhere, so the exec returns at once; bounded by its own 300 s.
    sleeper = (await onClient(`${dir}/${RUNNING} 300 </dev/null >/dev/null 2>&1 & echo $!`)).trim();
    assert.match(sleeper, /^\d+$/);

    const steps: string[] = [];
    const prepared = await prepareNativeEngine(transport, host, 'lab-client', 'http', { onStep: (text) => steps.push(text) });
    assert.deepEqual(prepared, { path: `${dir}/${current.binary.remoteName}` });

    const left = (await onClient(`cd ${dir} && ls benchlab-engine-*`)).trim().split('\n').sort();
    assert.deepEqual(left, [current.binary.remoteName, RUNNING].sort(), 'only the stale binaries were removed');
    assert.ok(steps.includes(`lab-client: removed 2 older native engine binaries (${STALE.join(', ')}), freeing 500 kB; kept ${RUNNING}, which a running process uses`), steps.join('\n'));
    assert.equal((await onClient(`kill -0 ${sleeper} && echo alive`)).trim(), 'alive', 'the process using the kept binary still runs');

    const again: string[] = [];
    await prepareNativeEngine(transport, host, 'lab-client', 'http', { onStep: (text) => again.push(text) });
    assert.deepEqual(again, [], 'nothing more to remove or upload on the next run');
  });
});
