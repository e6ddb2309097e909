// What runs on a server host before a plan deploys there (templates.occupant), for real on the lab's
// server: a server this Benchlab deployed, the same server seen from another Benchlab (its heartbeat
// fresh, so that Benchlab's deploy and stop refuse it, naming its holder), and stopped from there
// once named on purpose, which leaves the host clean and free.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { labSkipReason } from '../support/lab-hosts.ts';
import { hostIsClean, templateLab, type TemplateLab } from '../support/template-lab.ts';

const skip = labSkipReason();
const PORT = 18196;

describe('the server already running on a host, seen from this Benchlab and another', { skip: skip ?? false }, () => {
  let ours: TemplateLab;
  let theirs: TemplateLab;

  before(async () => {
    // The same folder on the host: two Benchlabs driving one server host.
    ours = await templateLab('occupant', { holder: 'the Benchlab app (pid 1 on ours)' });
    theirs = await templateLab('occupant', { holder: 'the benchlab CLI (pid 2 on theirs)' });
  });
  after(async () => {
    await ours?.service.stop(ours.hostId).catch(() => undefined);
    await ours?.close();
    await theirs?.close();
  });

  test('a free host has none', async () => {
    assert.equal(await ours.service.occupant(ours.hostId), null);
  });

  test("this Benchlab's ready server, and the same server as another Benchlab sees it", async () => {
    await ours.service.deploy(ours.hostId, 'node', { variant: 'async', port: PORT });
    const mine = await ours.service.occupant(ours.hostId);
    assert.ok(mine?.deploymentId);
    assert.deepEqual(mine, {
      templateName: 'Node.js (node:http)',
      variant: 'async',
      port: PORT,
      startedBy: 'this',
      state: 'ready',
      heartbeatAgeSeconds: null,
      deploymentId: mine.deploymentId,
      holder: 'the Benchlab app (pid 1 on ours)',
      runs: [],
      heldBy: null,
    });
    const seen = await theirs.service.occupant(theirs.hostId);
    assert.ok(seen, 'the other Benchlab sees it');
    assert.deepEqual(
      { ...seen, heartbeatAgeSeconds: null },
      { templateName: 'Node.js (node:http)', variant: 'async', port: PORT, startedBy: 'other', state: 'ready', heartbeatAgeSeconds: null, deploymentId: mine.deploymentId, holder: 'the Benchlab app (pid 1 on ours)', runs: [], heldBy: null },
    );
    assert.ok(seen.heartbeatAgeSeconds !== null && seen.heartbeatAgeSeconds < 15, `heartbeat ${seen.heartbeatAgeSeconds} s ago`);
    // What a plan of the other Benchlab would fail on without a stop.
    await assert.rejects(
      theirs.service.deploy(theirs.hostId, 'node', { variant: 'sync', port: PORT + 1 }),
      /lab-server runs Node\.js \(node:http\) \(async\) on port 18196 \(deployment [0-9a-f-]+\), held by the Benchlab app \(pid 1 on ours\), heartbeat \d+ s ago: not replaced by Node\.js \(node:http\)/,
    );
    // Nor is it stopped from there unless named.
    await assert.rejects(theirs.service.stop(theirs.hostId), { code: 'conflict', message: /held by the Benchlab app \(pid 1 on ours\).*: not stopped/ });
    assert.equal((await theirs.service.occupant(theirs.hostId))?.deploymentId, mine.deploymentId, 'still running');
  });

  test('stopped from the other Benchlab, named on purpose: none any more, and the host is clean', async () => {
    const seen = await theirs.service.occupant(theirs.hostId);
    await theirs.service.stop(theirs.hostId, { deploymentId: seen!.deploymentId! });
    assert.equal(await theirs.service.occupant(theirs.hostId), null);
    const clean = await hostIsClean(theirs, PORT);
    assert.ok(clean.clean, clean.why);
  });
});
