// The private MongoDB-protocol database on the lab's server (instance mongo): restify deployed with
// the knob database mongo gets FerretDB (the lab's hosts have no mongod), built here and uploaded,
// seeded and recorded with the deployment (which server, its version and settings); its /docs
// inserts one and answers 100 stored, unsorted, through Mongoose, read back with FerretDB's own `docs`; and
// Stop leaves no process, no data folder and a free port. The mongod branch (the lab has no mongod)
// runs against a stand-in that takes mongod's options and serves them with FerretDB. Vert.x's
// Mongo client, 100 selects at a time on a grown collection: FerretDB's memory stays where the first
// quarter of them left it, and every one answers (its findWithOptions once asked FerretDB for
// batches of 2^31 - 1 documents, a 16 GiB slice per find). FerretDB ending under a running server
// fails the deployment, named with its log, and the server is stopped with it; a run loading that
// server ends failed, saying so.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { shellQuote } from '../../app/common/shell-quote.ts';
import { runDeploymentOf } from '../../app/runs/run-deployment.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import type { Deployment } from '../../app/templates/templates-contract.ts';
import { startPrivateMongo } from '../../main/services/templates/private-mongo.ts';
import { closeDeployedLab, openLabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { POSTGRES_ONLY } from '../support/mongo-endpoints.ts';
import { hostIsClean, processesIn, templateLab, type TemplateLab } from '../support/template-lab.ts';
import { until } from '../support/until.ts';

const skip = labSkipReason();
const PORT = 18230;
const VERTX_PORT = 18232;
const RUN_PORT = 18234;
/** The collection the parallel selects start from (larger than what one select reads). */
const GROWN_DOCS = 1000;
const PARALLEL = 100;
const SELECTS = 400;

describe('the private MongoDB-protocol database on the lab server', { skip: skip ?? false }, () => {
  let lab: TemplateLab;
  /** What the template service told a run loading the server, before it took the server down. */
  const takenDown: Array<{ hostId: number; port: number; why: string }> = [];

  before(async () => {
    lab = await templateLab('mongo', { takingDown: (server) => takenDown.push(server) }, 'mongo');
  });
  after(async () => {
    await lab?.service.stop(lab.hostId).catch(() => undefined);
    await lab?.close();
  });

  async function onServer(command: string): Promise<string> {
    const result = await lab.connections.transportFor(lab.hostId).exec(command);
    assert.equal(result.code, 0, `${command}: ${result.stderr}`);
    return result.stdout;
  }

  /** A request from this machine to the lab server (the template listens on all interfaces). */
  async function fetchOnServer(path: string, method = 'GET'): Promise<{ status: number; text: string }> {
    const response = await fetch(`http://${lab.address}:${PORT}${path}`, { method });
    return { status: response.status, text: await response.text() };
  }

  test('restify with the database mongo: FerretDB started, seeded and recorded; /docs through Mongoose; Stop leaves nothing', async () => {
    const deployment = await lab.service.deploy(lab.hostId, 'node-restify', { knobs: { database: 'mongo' }, port: PORT });
    assert.equal(deployment.state, 'ready', deployment.message ?? '');
    const database = deployment.database!;
    assert.equal(database.kind, 'ferretdb', 'the lab has no mongod: FerretDB serves');
    assert.match(database.version, /^v\d+\.\d+\.\d+ \(MongoDB \d+\.\d+\.\d+\)$/);
    assert.equal(database.name, 'benchlab');
    assert.deepEqual(Object.keys(database.settings).sort(), ['auth', 'backend', 'bindIp', 'memoryLimit', 'sqlitePragmas']);
    assert.equal(database.settings.backend, 'sqlite');
    assert.match(database.settings.memoryLimit!, /^\d+ MiB$/, 'the memory FerretDB may take is recorded');
    const stages = lab.progress.map((change) => change.step?.detail).filter((detail) => detail);
    for (const stage of [/^starting FerretDB \(SQLite\) on 127\.0\.0\.1$/, /^seeding docs$/]) {
      assert.ok(stages.some((detail) => stage.test(detail!)), `a progress line ${stage} among ${JSON.stringify(stages)}`);
    }
    assert.ok((await processesIn(lab, lab.run)).length > 0, 'the server runs in the run dir');
    const listens = await onServer(`awk 'FNR > 1 && $4 == "0A" { print $2 }' /proc/net/tcp | grep -i ':${database.port.toString(16).padStart(4, '0')}$' || true`);
    assert.deepEqual(listens.trim().split('\n'), [`0100007F:${database.port.toString(16).toUpperCase().padStart(4, '0')}`], 'FerretDB listens on 127.0.0.1 only');

    const ferretdb = `${lab.root}/bin/benchlab-ferretdb`;
    const url = `mongodb://127.0.0.1:${database.port}/benchlab`;
    const stored = async () => (await onServer(`${shellQuote(ferretdb)} docs --url ${shellQuote(url)}`)).trim().split('\n');
    assert.equal((await stored())[0], 'count 100', 'seeded with 100 documents');
    const answer = await fetchOnServer('/docs', 'POST');
    assert.equal(answer.status, 200, answer.text);
    const docs = JSON.parse(answer.text) as Array<{ id: string }>;
    assert.equal(docs.length, 100);
    const after = await stored();
    assert.equal(after[0], 'count 101', 'one document inserted');
    assert.deepEqual(
      docs.map((doc) => doc.id),
      after.slice(2).map((line) => (JSON.parse(line) as { id: string }).id),
      '100 stored documents, unsorted: the first 100 in the database’s order',
    );
    assert.deepEqual(await fetchOnServer('/db'), { status: 503, text: POSTGRES_ONLY });

    // "[b]" so the pattern does not match the shell that runs pgrep.
    const running = `pgrep -f ${shellQuote(`[b]enchlab-ferretdb serve --dir ${lab.run}/mongo/data`)} || true`;
    assert.notEqual((await onServer(running)).trim(), '', 'FerretDB runs from the deployment’s own data folder');

    const stopped = await lab.service.stop(lab.hostId);
    assert.match(stopped.message ?? '', /gracefully/);
    const clean = await hostIsClean(lab, database.port);
    assert.ok(clean.clean, clean.why);
    const left = await onServer(running);
    assert.equal(left.trim(), '', 'no FerretDB process is left');
  });

  test('FerretDB ending under the running server: the deployment fails naming it, with its log, and the server is stopped too', async () => {
    const deployment = await lab.service.deploy(lab.hostId, 'node-restify', { knobs: { database: 'mongo' }, port: PORT });
    assert.equal(deployment.state, 'ready', deployment.message ?? '');
    const database = deployment.database!;
    const folder = shellQuote(`${lab.run}/mongo`);
    const pid = (await onServer(`cat ${folder}/pid`)).trim();
    assert.match(pid, /^\d+$/);
    const logged = (await onServer(`tail -n 15 ${folder}/ferretdb.log`)).trim().split('\n');
    assert.notEqual(logged[0], '', 'FerretDB logs its start');
    const heardBefore = takenDown.length;
    await onServer(`kill -KILL ${pid}`);

    const failed = await until(() => lab.service.deployments().find((one) => one.hostId === lab.hostId && one.state === 'failed'), 'the deployment to fail', 60_000);
    assert.match(failed.message ?? '', /^The private database of .+ on lab-server \(FerretDB v\d+\.\d+\.\d+ \(MongoDB [\d.]+\)\) stopped running without being asked to, so Benchlab stopped the server too/);
    assert.ok(failed.logTail.includes(logged.at(-1)!), `FerretDB's own log is kept (${JSON.stringify(failed.logTail)})`);
    const heard = takenDown.slice(heardBefore);
    assert.deepEqual(heard.map(({ hostId, port }) => ({ hostId, port })), [{ hostId: lab.hostId, port: PORT }], 'a run loading the server hears before it goes');
    assert.match(heard[0]!.why, /its private database \(FerretDB .+\) stopped running/);
    const clean = await hostIsClean(lab, database.port);
    assert.ok(clean.clean, clean.why);
  });

  test("Vert.x's Mongo client, 100 selects at a time on a grown collection: FerretDB's memory stays bounded and every select answers", async (t) => {
    const deployment = await lab.service.deploy(lab.hostId, 'vertx', { variant: 'eventloop', knobs: { database: 'mongo', language: 'java' }, port: VERTX_PORT });
    assert.equal(deployment.state, 'ready', deployment.message ?? '');
    const database = deployment.database!;
    assert.equal(database.kind, 'ferretdb');
    const ferretdb = shellQuote(`${lab.root}/bin/benchlab-ferretdb`);
    const url = shellQuote(`mongodb://127.0.0.1:${database.port}/benchlab`);
    await onServer(`${ferretdb} seed --url ${url} --docs ${GROWN_DOCS}`);
    const pid = (await onServer(`cat ${shellQuote(`${lab.run}/mongo/pid`)}`)).trim();
    assert.match(pid, /^\d+$/);
    /** FerretDB's peak resident memory so far (VmHWM), in kB; it fails when FerretDB is gone. */
    const peakKb = async () => Number(/^VmHWM:\s+(\d+)/m.exec(await onServer(`cat /proc/${pid}/status`))?.[1]);

    let sent = 0;
    const failures: string[] = [];
    /** `count` more selects, PARALLEL at a time; each must answer 200 with 100 documents. */
    async function select(count: number): Promise<void> {
      const last = sent + count;
      const worker = async () => {
        while (sent < last) {
          sent++;
          try {
            const answer = await fetch(`http://${lab.address}:${VERTX_PORT}/docs`, { signal: AbortSignal.timeout(120_000) });
            const text = await answer.text();
            if (answer.status !== 200) failures.push(`${answer.status} ${text.slice(0, 200)}`);
            else if ((JSON.parse(text) as unknown[]).length !== 100) failures.push(`${(JSON.parse(text) as unknown[]).length} documents`);
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    }

    await select(SELECTS / 4);
    assert.deepEqual(failures.slice(0, 3), [], `every one of the first ${SELECTS / 4} selects answered`);
    const quarter = await peakKb();
    await select(SELECTS - SELECTS / 4);
    assert.deepEqual(failures.slice(0, 3), [], `every one of ${SELECTS} selects answered`);
    const whole = await peakKb();
    t.diagnostic(`FerretDB peak memory: ${quarter} kB after ${SELECTS / 4} selects, ${whole} kB after ${SELECTS}`);
    // A find asking for batches of 2^31 - 1 documents allocates them up front, and a cursor left open
    // holds what it read until its connection closes: 300 more of either would pass twice the first
    // quarter's peak many times over.
    assert.ok(whole < quarter * 2, `FerretDB's peak memory after ${SELECTS} selects (${whole} kB) within 2× its peak after ${SELECTS / 4} (${quarter} kB)`);
    const count = (await onServer(`${ferretdb} docs --url ${url} | head -n 1`)).trim();
    assert.equal(count, `count ${GROWN_DOCS + SELECTS}`, 'each select inserted its document');
    await lab.service.stop(lab.hostId);
  });

  test("a host's own mongod: started with its own dbpath and port, seeded, recorded as mongod, stopped by stop.sh", async () => {
    const ferretdb = `${lab.root}/bin/benchlab-ferretdb`;
    await onServer(`test -x ${shellQuote(ferretdb)}`);
    // mongod's options as Benchlab passes them (--fork returns once it serves), served by FerretDB.
    const fake = `${lab.root}/fake-mongod`;
    await onServer(`cat > ${shellQuote(fake)} <<'EOF'
#!/bin/sh
[ "$1" = "--version" ] && { echo "db version v7.0.14"; exit 0; }
while [ $# -gt 0 ]; do case $1 in --dbpath) dbpath=$2; shift ;; --port) port=$2; shift ;; --logpath) log=$2; shift ;; --pidfilepath) pidfile=$2; shift ;; esac; shift; done
setsid ${ferretdb} serve --dir "$dbpath" --ports "$port" --port-file "$dbpath.port" </dev/null >"$log" 2>&1 &
echo $! > "$pidfile"
i=0; while [ ! -s "$dbpath.port" ] && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$dbpath.port" ]
EOF
chmod +x ${shellQuote(fake)}`);
    const dir = `${lab.root}/mongod-probe`;
    const transport = lab.connections.transportFor(lab.hostId);
    try {
      const started = await startPrivateMongo(transport, { dir, mongod: { path: fake, version: '7.0.14' }, ferretdb, ports: [29_871] }, () => undefined);
      assert.equal(started.facts.kind, 'mongod');
      assert.equal(started.facts.port, 29_871);
      assert.equal(started.url, 'mongodb://127.0.0.1:29871/benchlab');
      assert.match(started.facts.version, /^\d+\.\d+\.\d+$/, 'the version the server reports');
      assert.deepEqual(started.facts.settings, { bindIp: '127.0.0.1', auth: 'off' });
      assert.equal((await onServer(`${shellQuote(ferretdb)} docs --url ${shellQuote(started.url)} | head -n 1`)).trim(), 'count 100');
      const pid = (await onServer(`cat ${shellQuote(`${dir}/pid`)}`)).trim();
      assert.match(pid, /^\d+$/);
      await onServer(`sh ${shellQuote(`${dir}/stop.sh`)}`);
      assert.equal((await onServer(`kill -0 ${pid} 2>/dev/null && echo alive || true`)).trim(), '', 'stop.sh ended it');
    } finally {
      await transport.exec(`[ -f '${dir}/stop.sh' ] && sh '${dir}/stop.sh'; rm -rf '${dir}' ${shellQuote(fake)}`);
    }
  });
});

// After the suite above has stopped its servers: a back end of its own on the same lab.
describe('FerretDB ending under a run on the lab server', { skip: skip ?? false }, () => {
  test('the run loading the server ends failed, saying its private database stopped and the server was stopped with it', async () => {
    const lab = await openLabBackend('mongo', 'benchlab-mongo-run-', { sharedCaches: true });
    try {
      const deployment = await lab.ok<Deployment>('templates.deploy', { hostId: lab.serverId, templateId: 'node-restify', variant: 'async', knobs: { database: 'mongo' }, port: RUN_PORT });
      assert.equal(deployment.state, 'ready', deployment.message ?? '');
      // Long enough that only the database's end can end it within the wait below.
      const started = await lab.ok<LiveRun>('runs.start', {
        clientHostId: lab.clientId,
        serverHostId: lab.serverId,
        profile: { target: deployment.url!.replace(/\/$/, ''), request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 120 }, profileServer: false },
        deployment: runDeploymentOf(deployment),
      });
      await until(() => (lab.services.runs.live().points.length > 0 ? true : null), 'the run to load the server', 60_000);
      const transport = lab.services.connections.transportFor(lab.serverId);
      const listener = `$(ss -ltnpH 'sport = :${deployment.database!.port}' | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)`;
      assert.match((await transport.exec(`tr '\\0' ' ' < /proc/${listener}/cmdline`)).stdout, /benchlab-ferretdb serve/, 'FerretDB listens on the recorded port');
      await transport.exec(`kill -KILL ${listener}`);

      const ended = await lab.services.runs.finished(started.sessionId);
      assert.equal(ended.status, 'failed');
      assert.match(ended.message ?? '', /was stopped by this Benchlab: its private database \(FerretDB .+\) stopped running at [\d.]+ s/);
      // The run hears before the server goes; the deployment fails once it has gone.
      await until(async () => (await lab.ok<Deployment[]>('templates.deployments', {}))[0]?.state === 'failed', 'the deployment to fail', 60_000);
    } finally {
      await closeDeployedLab(lab);
    }
  });
});
