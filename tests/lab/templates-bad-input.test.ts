// Deploying goes wrong in the ways issue 5 lists, for real on the lab's server host: a knob out of
// bounds, a port in use, a server that exits at start or never gets healthy, a host without the
// runtime (and the portable Node that stands in for a missing one), cancel, and a Benchlab that
// vanishes without stopping its server. Each gives a clear message, and the host is left clean.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Deployment } from '../../app/templates/templates-contract.ts';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { hostIsClean, templateLab, type TemplateLab } from '../support/template-lab.ts';
import { until } from '../support/until.ts';

const skip = labSkipReason();
const PORT = 18190;

/** The bundled templates plus the fixtures, in a scratch folder (the build fixture writes into it). */
function templatesWithFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-fixture-templates-'));
  cpSync(bundledPaths().templatesDir, dir, { recursive: true });
  cpSync(join(import.meta.dirname, 'fixtures', 'templates'), dir, { recursive: true });
  return dir;
}

function lastProgress(lab: TemplateLab): Deployment {
  return lab.progress[lab.progress.length - 1]!;
}

describe('deploying templates that go wrong, on the lab server', { skip: skip ?? false }, () => {
  let templatesDir: string;
  let lab: TemplateLab;

  before(async () => {
    templatesDir = templatesWithFixtures();
    lab = await templateLab('bad-input', { paths: { templatesDir, payloadFile: bundledPaths().payloadFile } });
  });
  after(async () => {
    await lab?.close();
    rmSync(templatesDir, { recursive: true, force: true });
  });

  test('a knob out of bounds is refused before anything reaches the host', async () => {
    await assert.rejects(lab.service.deploy(lab.hostId, 'node', { knobs: { workers: 100 }, port: PORT }), {
      code: 'invalid_args',
      message: 'Node.js (node:http): knob "workers" (Cluster workers): must be between 1 and 64 (got 100)',
    });
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });

  test('a port another program listens on is named, and nothing is started', async () => {
    const transport = lab.connections.transportFor(lab.hostId);
    const occupant = await transport.exec(`setsid /usr/bin/node -e "require('net').createServer().listen(${PORT})" </dev/null >/dev/null 2>&1 & echo $!`);
    const pid = occupant.stdout.trim();
    try {
      await until(async () => (await hostIsClean(lab, PORT)).why.includes('still listens'), 'the occupant listens', 5000);
      await assert.rejects(lab.service.deploy(lab.hostId, 'node', { port: PORT }), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'conflict');
        assert.match(error.message, new RegExp(`port ${PORT} is already in use on lab-server: another program listens there`));
        return true;
      });
      assert.equal(lastProgress(lab).state, 'failed');
      const leftover = await transport.exec(`test -e '${lab.run}' && echo exists; true`);
      assert.equal(leftover.stdout.trim(), '');
    } finally {
      await transport.exec(`kill ${pid}`);
    }
  });

  test('a server that exits at start fails at once with its exit code and log tail; the host is clean', async () => {
    // "exited … before it answered" (not "did not answer … within") says it was not held for the readiness timeout.
    await assert.rejects(lab.service.deploy(lab.hostId, 'exits-at-start', { port: PORT }), (error: Error & { code?: string; details?: Record<string, string> }) => {
      assert.match(error.message, /Deploying Exits at start to lab-server failed at "wait for readiness": Exits at start exited with code 3 before it answered GET \/health\. The server was stopped and the host cleaned\./);
      assert.match(error.message, /Last log lines:\nstarting\nboom: the configuration file is missing/);
      assert.match(error.details?.logTail ?? '', /boom/);
      return true;
    });
    const failed = lastProgress(lab);
    assert.equal(failed.state, 'failed');
    assert.ok(failed.logTail.includes('boom: the configuration file is missing'));
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });

  test('a server that never answers its readiness check times out with its last status', async () => {
    await assert.rejects(lab.service.deploy(lab.hostId, 'never-healthy', { port: PORT }), {
      code: 'timeout',
      message: /Never healthy did not answer GET \/health with 200 within 2 s \(it last answered 500\)/,
    });
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });

  test('cancel during the readiness wait stops the server and cleans the host', async () => {
    const deploying = lab.service.deploy(lab.hostId, 'slow-start', { port: PORT });
    await until(() => lab.progress.some((entry) => entry.templateId === 'slow-start' && entry.step?.id === 'ready'), 'the readiness step', 15_000);
    assert.deepEqual(lab.service.cancel(lab.hostId), { cancelled: true });
    await assert.rejects(deploying, { code: 'cancelled', message: /Cancelled during "wait for readiness"; the server was stopped and the host cleaned\./ });
    assert.equal(lastProgress(lab).state, 'stopped');
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });

  test('build steps run here and their artifacts are uploaded', async () => {
    const deployment = await lab.service.deploy(lab.hostId, 'built', { port: PORT });
    assert.equal(deployment.state, 'ready');
    const answer = await fetch(`http://${lab.address}:${PORT}/hello`);
    assert.equal(await answer.text(), 'built at 1970-01-01T00:00:00.000Z\n');
    assert.ok(lab.progress.some((entry) => entry.state === 'building' && entry.step?.detail === 'generate dist/server.mjs'));
    await lab.service.stop(lab.hostId);
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });

  test('a Node requirement nothing can meet says what was found and what would install it', async () => {
    await assert.rejects(lab.service.deploy(lab.hostId, 'needs-node-99', { port: PORT }), {
      code: 'unavailable',
      message: /lab-server is missing Node\.js >= 99 \(found v\d+\.\d+\.\d+ at \/usr\/bin\/node\); Benchlab's portable Node is v24\. Benchlab can install it with: DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs/,
    });
    assert.deepEqual(lastProgress(lab).installOffers, [{ runtime: 'node', packageManager: 'apt-get', command: 'DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs' }]);
  });
});

describe('a host without the runtimes (runtimes looked up in an empty PATH)', { skip: skip ?? false }, () => {
  let lab: TemplateLab;
  before(async () => {
    lab = await templateLab('no-runtime', { runtimePath: '/nonexistent-benchlab-runtimes' });
    // No portable Node from an earlier run: this run must upload it.
    await lab.connections.transportFor(lab.hostId).exec(`rm -rf '${lab.root}/runtime'`);
  });
  after(async () => {
    await lab?.service.stop(lab.hostId).catch(() => undefined);
    await lab?.close();
  });

  test('Apache missing: the message names it and offers the package manager command', async () => {
    await assert.rejects(lab.service.deploy(lab.hostId, 'apache-static', { port: PORT + 1 }), {
      code: 'unavailable',
      message:
        'Deploying Apache httpd (static files) to lab-server failed at "check the host and its runtimes": lab-server is missing Apache httpd (apache2 or httpd, not found on PATH or in /usr/sbin). Benchlab can install it with: DEBIAN_FRONTEND=noninteractive apt-get install -y apache2.',
    });
    assert.deepEqual(lastProgress(lab).installOffers, [{ runtime: 'apache2', packageManager: 'apt-get', command: 'DEBIAN_FRONTEND=noninteractive apt-get install -y apache2' }]);
    const clean = await hostIsClean(lab, PORT + 1);
    assert.ok(clean.clean, clean.why);
  });

  test('Java missing: the message names the Java each variant needs and offers a headless JRE', async () => {
    const check = 'Deploying Apache Tomcat 11 (embedded) to lab-server failed at "check the host and its runtimes": lab-server is missing';
    await assert.rejects(lab.service.deploy(lab.hostId, 'tomcat', { port: PORT + 1 }), {
      code: 'unavailable',
      message: `${check} Java >= 17 (no java on PATH, in JAVA_HOME or in /usr/lib/jvm). Benchlab can install it with: DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-17-jre-headless.`,
    });
    await assert.rejects(lab.service.deploy(lab.hostId, 'tomcat', { variant: 'virtual', port: PORT + 1 }), {
      message: `${check} Java >= 21 (no java on PATH, in JAVA_HOME or in /usr/lib/jvm). Benchlab can install it with: DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-21-jre-headless.`,
    });
    assert.deepEqual(lastProgress(lab).installOffers, [{ runtime: 'java', packageManager: 'apt-get', command: 'DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-21-jre-headless' }]);
    const clean = await hostIsClean(lab, PORT + 1);
    assert.ok(clean.clean, clean.why);
  });

  test("the install offer, once confirmed, runs the package manager's command as root", async () => {
    // The lab's hosts share this machine's packages, where apache2 is installed: apt-get has
    // nothing to do, but the command runs for real and its output comes back.
    const installed = await lab.service.install(lab.hostId, 'apache2');
    assert.equal(installed.command, 'DEBIAN_FRONTEND=noninteractive apt-get install -y apache2');
    assert.match(installed.output, /apache2 is already the newest version/);
    assert.ok(lab.logs.some((line) => line.message === 'lab-server: installed apache2'));
  });

  test('Node missing: the portable Node is uploaded once and runs the template', async () => {
    const first = Date.now();
    const deployment = await lab.service.deploy(lab.hostId, 'node', { port: PORT + 1 });
    const firstMs = Date.now() - first;
    assert.equal(deployment.state, 'ready');
    await until(() => lab.logs.some((line) => /node v24\.\d+\.\d+ pg \d+\.\d+\.\d+ pid \d+: listening/.test(line.message)), 'the server says it runs on v24', 5000);
    assert.equal((await fetch(`http://${lab.address}:${PORT + 1}/hello`)).status, 200);
    const again = Date.now();
    await lab.service.deploy(lab.hostId, 'node', { port: PORT + 1, variant: 'sync' }, { replace: true });
    const againMs = Date.now() - again;
    // Uploaded the first time only: the second deploy finds it by its archive's hash.
    assert.equal(lab.logs.filter((line) => /uploaded the portable Node v24\.\d+\.\d+ \(the host has no Node >= 18\)/.test(line.message)).length, 1);
    console.log(`portable Node deploy: ${firstMs} ms first, ${againMs} ms again`);
    await lab.service.stop(lab.hostId);
    const clean = await hostIsClean(lab, PORT + 1);
    assert.ok(clean.clean, clean.why);
  });
});

describe('a Benchlab that disappears without stopping its server', { skip: skip ?? false }, () => {
  test('the supervisor stops the server once the heartbeat is gone; the next connect removes the files', async () => {
    const gone = await templateLab('vanish', { maxHeartbeatAgeSeconds: 2, heartbeatIntervalMs: 500 });
    await gone.service.deploy(gone.hostId, 'node', { port: PORT + 2 });
    await gone.close(); // no stop: like a killed app or a cable pulled for good
    const next = await templateLab('vanish');
    try {
      await until(async () => !(await hostIsClean(next, PORT + 2)).why.includes('still listens'), 'the supervisor stops the server', 10_000);
      const log = await next.connections.transportFor(next.hostId).exec(`cat '${next.run}/server.log' 2>/dev/null; true`);
      // The connect of `next` may already have removed the run dir; then its log line says so.
      const said = log.stdout + next.logs.map((line) => line.message).join('\n');
      assert.match(said, /no heartbeat from Benchlab for over 2 s|removed the files of Node\.js \(node:http\) an earlier session left/);
      await next.service.stop(next.hostId);
      const clean = await hostIsClean(next, PORT + 2);
      assert.ok(clean.clean, clean.why);
    } finally {
      await next.close();
    }
  });

  test('a server left running is found and stopped on the next connect', async () => {
    const gone = await templateLab('leftover');
    await gone.service.deploy(gone.hostId, 'node', { port: PORT + 3 });
    await gone.close();
    // Any heartbeat counts as stale for this Benchlab, so the leftover is found without waiting for it to age.
    const next = await templateLab('leftover', { liveHeartbeatAgeSeconds: 0 });
    try {
      await until(() => next.logs.some((line) => /found Node\.js \(node:http\) left running by an earlier session; stopped it \(graceful\) and cleaned up/.test(line.message)), 'the leftover is reported', 15_000);
      const clean = await hostIsClean(next, PORT + 3);
      assert.ok(clean.clean, clean.why);
    } finally {
      await next.close();
    }
  });
});
