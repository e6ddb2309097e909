// The server's CPU profile per run on the lab, per runtime: the Node template (V8's profile through
// its inspector), a JVM template (the JDK's flight recorder), and Apache (perf), each loaded on
// /fib or /hello. Each profile is stored, and names the server's own frames: the template's hot
// function is among its top frames. Apache once more with perf missing (a perf command the host
// lacks): the run completes and its profile is missing with the one line saying what to install.
// A run with the switch off stores its profile as off.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { flameTree, frameTotals, topFrames } from '../../app/profiles/flame-graph.ts';
import type { Profile, ProfileEntry } from '../../app/profiles/profiles.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import { oneServerLab } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

const INSTANCE = 'profiles';
const PORT = 18491;

describe('server profiles per runtime on the lab', { skip: labSkipReason() ?? false }, () => {
  const suite = oneServerLab(INSTANCE, 'benchlab-profiles-lab-', PORT);
  const { deploy } = suite;

  /** One closed-model run of `path`; its single run's profile entry (and the run's status). */
  async function profiledRun(target: string, path: string, options: { profileServer?: boolean } = {}): Promise<{ entry: ProfileEntry; session: LiveRun }> {
    const started = await suite.lab.ok<LiveRun>('runs.start', {
      clientHostId: suite.lab.clientId,
      serverHostId: suite.lab.serverId,
      profile: { target, request: { path }, load: { model: 'closed', connections: 4, durationS: 4 }, ...(options.profileServer === false ? { profileServer: false } : {}) },
    });
    const session = await suite.lab.services.runs.finished(started.sessionId);
    assert.equal(session.status, 'completed', session.message ?? '');
    const entries = await suite.lab.ok<ProfileEntry[]>('profiles.list', { sessionId: started.sessionId });
    assert.equal(entries.length, 1, JSON.stringify(entries));
    return { entry: entries[0]!, session };
  }

  async function capturedTop(entry: ProfileEntry, tool: string): Promise<{ names: string[]; profile: Profile }> {
    assert.equal(entry.status, 'captured', entry.reason ?? '');
    assert.equal(entry.tool, tool);
    const profile = await suite.lab.ok<Profile>('profiles.get', { runId: entry.runId });
    assert.ok(profile.facts.samples > 0 && profile.facts.samples === entry.samples);
    return { names: topFrames(flameTree(profile.folded), 20).map((frame) => frame.name), profile };
  }

  test('Node: V8’s profile through the inspector has the template’s fib among its top frames; switched off, the run has none', async () => {
    const target = await deploy('node', 'async');
    const { entry } = await profiledRun(target, '/fib?n=22');
    const { names } = await capturedTop(entry, 'v8');
    // The template's code is bundled into server.mjs: fib is named with its place there.
    assert.ok(names.some((name) => /^fib [\w.-]+\.mjs:\d+$/.test(name)), names.join('\n'));

    const off = await profiledRun(target, '/fib?n=22', { profileServer: false });
    assert.deepEqual([off.entry.status, off.entry.tool, off.entry.samples], ['off', null, null]);
  });

  test('JVM (Jetty): the flight recorder’s samples have the template’s fib among the top frames', async () => {
    const target = await deploy('jetty', 'blocking');
    const { entry } = await profiledRun(target, '/fib?n=24');
    const { names } = await capturedTop(entry, 'jfr');
    assert.ok(names.includes('benchlab.common.Endpoints.fib'), names.join('\n'));
  });

  test('Apache with perf: its own request processing is on the stacks; without perf, the run completes with one line saying what to install', async () => {
    const target = await deploy('apache-static', 'mpm_event');
    const { entry } = await profiledRun(target, '/hello');
    const { names, profile } = await capturedTop(entry, 'perf');
    // Every stack is rooted in the server's command, and Apache's own request walk (ap_*) is on the
    // stacks under it. Its functions hold little time of their own (the kernel's network and
    // scheduling work does), and perf walks no further up a stack built without frame pointers, so
    // they are looked for among all the profile's frames, not only the top ones.
    const totals = frameTotals(flameTree(profile.folded));
    assert.ok(totals.some((frame) => frame.name === 'apache2' && frame.totalShare > 0.5), totals.slice(0, 5).map((frame) => frame.name).join());
    const apache = totals.filter((frame) => /^ap_/.test(frame.name));
    assert.ok(apache.length > 0, `top frames: ${names.join(', ')}`);

    const previous = process.env.BENCHLAB_PERF;
    process.env.BENCHLAB_PERF = 'perf-not-on-this-host';
    try {
      const missing = await profiledRun(target, '/hello');
      assert.equal(missing.entry.status, 'missing');
      assert.equal(missing.entry.tool, 'perf');
      assert.match(missing.entry.reason ?? '', /^perf is not installed on lab-server: install it \(Debian: apt-get install linux-perf/);
      assert.equal(missing.entry.reason!.split('\n').length, 1);
    } finally {
      if (previous === undefined) delete process.env.BENCHLAB_PERF;
      else process.env.BENCHLAB_PERF = previous;
    }
  });
});
