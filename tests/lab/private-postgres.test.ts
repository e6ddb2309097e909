// The private PostgreSQL's lifecycle on the lab's server, with a fixture template that declares a
// database: created, seeded and handed to the server with the knob on (nothing of it with the knob
// off), recorded with the deployment, and gone after Stop, after Benchlab vanished (the supervisor
// stops it with the server) and after an earlier session's leftover is cleaned: no process, no
// data dir, and the machine's own PostgreSQL (its files, its clusters) untouched throughout. The
// database ending under a running server fails the deployment, named with its log, and stops the server.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { findPostgres, startPrivatePostgres } from '../../main/services/templates/private-postgres.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { hostIsClean, privateDatabaseUrl, processesIn, psqlOnServer, templateLab, type TemplateLab } from '../support/template-lab.ts';
import { until } from '../support/until.ts';

const skip = labSkipReason();
const PORT = 18190;
const NAME = 'pgsql';
const paths = { templatesDir: join(import.meta.dirname, 'fixtures', 'database-templates'), payloadFile: bundledPaths().payloadFile };

/** What the machine's own PostgreSQL is: its files (names, sizes, times, owners) and the postmasters working in them. */
async function systemPostgres(lab: TemplateLab): Promise<string> {
  const result = await lab.connections
    .transportFor(lab.hostId)
    .exec("find /var/lib/postgresql /etc/postgresql -printf '%p %s %T@ %u\\n' 2>/dev/null | sort | sha256sum");
  return `${result.stdout.trim()} ${(await processesIn(lab, '/var/lib/postgresql')).join(',')}`;
}

async function serverSays(lab: TemplateLab): Promise<string[]> {
  const result = await lab.connections.transportFor(lab.hostId).exec(`cat '${lab.run}/db-url'`);
  return result.stdout.trim().split('\n');
}

describe('the private PostgreSQL on the lab server', { skip: skip ?? false }, () => {
  let lab: TemplateLab;
  let system: string;

  before(async () => {
    lab = await templateLab(NAME, { paths });
    system = await systemPostgres(lab);
  });
  after(async () => {
    await lab?.service.stop(lab.hostId).catch(() => undefined);
    await lab?.close();
  });

  test('knob on: created, seeded, handed over and recorded; Stop leaves nothing', async () => {
    const deployment = await lab.service.deploy(lab.hostId, 'db-probe', { knobs: { database: true }, port: PORT });
    assert.equal(deployment.state, 'ready');
    const database = deployment.database!;
    assert.equal(database.kind, 'postgresql');
    assert.match(database.version, /^1[3-9]\.\d+|^[2-9]\d\.\d+/);
    assert.deepEqual(Object.keys(database.settings).sort(), ['fsync', 'max_connections', 'shared_buffers', 'synchronous_commit', 'work_mem']);
    assert.equal(database.settings.max_connections, '512');
    const stages = lab.progress.map((change) => change.step?.detail).filter((detail) => detail);
    for (const stage of [/^initdb \(PostgreSQL /, /^starting PostgreSQL on 127\.0\.0\.1:\d+$/, /^seeding world, fortune and docs$/]) {
      assert.ok(stages.some((detail) => stage.test(detail!)), `a progress line ${stage} among ${JSON.stringify(stages)}`);
    }

    const url = await privateDatabaseUrl(lab);
    assert.match(url, new RegExp(`^postgresql://benchlab:[0-9a-f]{36}@127\\.0\\.0\\.1:${database.port}/benchlab$`));
    assert.deepEqual(await serverSays(lab), [url, url], '{db.url} and BENCHLAB_DB_URL carry the URL');
    assert.deepEqual(
      await psqlOnServer(lab, url, "SELECT (SELECT count(*) FROM world) || ' ' || (SELECT count(*) FROM fortune) || ' ' || (SELECT count(*) FROM docs) || ' ' || current_user"),
      ['10000 12 100 benchlab'],
    );
    assert.deepEqual(await psqlOnServer(lab, url, 'SELECT count(*) FROM world WHERE randomnumber NOT BETWEEN 1 AND 10000'), ['0']);
    assert.deepEqual(await psqlOnServer(lab, url, "SELECT count(*) FROM docs WHERE title !~ '^[a-z]{10}$' OR body !~ '^[a-z]{100}$' OR count NOT BETWEEN 1 AND 10000"), ['0']);
    const postmaster = await processesIn(lab, `${lab.run}/postgres/data`);
    assert.ok(postmaster.length > 0, 'the postmaster works in the private data dir');
    const owner = await lab.connections.transportFor(lab.hostId).exec(`stat -c %U '${lab.run}/postgres/data'`);
    assert.equal(owner.stdout.trim(), 'postgres', 'the cluster belongs to the user postgres');
    const listens = await lab.connections.transportFor(lab.hostId).exec(`awk 'FNR > 1 && $4 == "0A" { print $2 }' /proc/net/tcp | grep -i ':${database.port.toString(16).padStart(4, '0')}$'`);
    assert.deepEqual(listens.stdout.trim().split('\n'), [`0100007F:${database.port.toString(16).toUpperCase().padStart(4, '0')}`], 'it listens on 127.0.0.1 only');

    const stopped = await lab.service.stop(lab.hostId);
    assert.match(stopped.message ?? '', /gracefully/);
    const clean = await hostIsClean(lab, database.port);
    assert.ok(clean.clean, clean.why);
    assert.equal(await systemPostgres(lab), system, "the machine's own PostgreSQL is untouched");
  });

  test('knob off: no database, the server is told none', async () => {
    const deployment = await lab.service.deploy(lab.hostId, 'db-probe', { port: PORT });
    assert.equal(deployment.database, null);
    assert.deepEqual(await serverSays(lab), ['none', 'none']);
    const folder = await lab.connections.transportFor(lab.hostId).exec(`test -e '${lab.run}/postgres' && echo exists; true`);
    assert.equal(folder.stdout.trim(), '');
    await lab.service.stop(lab.hostId);
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });

  /** A next session, connecting at once, leaves the host clean of the database on `port`; the machine's own PostgreSQL untouched. */
  async function nextSessionCleans(port: number, what: string): Promise<void> {
    const next = await templateLab(NAME, { paths, liveHeartbeatAgeSeconds: 0 });
    try {
      await until(async () => (await hostIsClean(next, port)).clean, what, 30_000, 500);
    } finally {
      await next.close();
    }
    assert.equal(await systemPostgres(lab), system, "the machine's own PostgreSQL is untouched");
  }

  test('Benchlab gone: the supervisor stops the database with the server; the next session removes what is left', async () => {
    const gone = await templateLab(NAME, { paths, maxHeartbeatAgeSeconds: 2, heartbeatIntervalMs: 500 });
    const deployment = await gone.service.deploy(gone.hostId, 'db-probe', { knobs: { database: true }, port: PORT });
    assert.ok(deployment.database);
    await gone.close(); // no Stop: heartbeats end, the supervisor's limit runs out
    await until(async () => (await processesIn(lab, lab.run)).length === 0, 'the supervisor stopped the server and its database', 30_000, 500);

    await nextSessionCleans(deployment.database!.port, 'the next session removed the leftover');
  });

  test('the database ending under the running server: the deployment fails naming it, with its log, and the server is stopped too', async () => {
    const deployment = await lab.service.deploy(lab.hostId, 'db-probe', { knobs: { database: true }, port: PORT });
    assert.equal(deployment.state, 'ready', deployment.message ?? '');
    const onServer = async (command: string) => (await lab.connections.transportFor(lab.hostId).exec(command)).stdout.trim();
    const postmaster = await onServer(`head -n 1 '${lab.run}/postgres/data/postmaster.pid'`);
    assert.match(postmaster, /^\d+$/);
    const logged = (await onServer(`tail -n 15 '${lab.run}/postgres/data/postgres.log'`)).split('\n');
    assert.ok(logged.some((line) => /database system is ready to accept connections/.test(line)), `PostgreSQL logs its start (${JSON.stringify(logged)})`);
    // KILL: PostgreSQL logs nothing of its own end, so the log kept is what it said before.
    await onServer(`kill -KILL ${postmaster}`);
    const failed = await until(() => lab.service.deployments().find((one) => one.hostId === lab.hostId && one.state === 'failed'), 'the deployment to fail', 60_000);
    assert.match(failed.message ?? '', /^The private database of .+ on lab-server \(PostgreSQL \d+\.\d+.*\) stopped running without being asked to, so Benchlab stopped the server too/);
    assert.ok(failed.logTail.includes(logged.at(-1)!), `PostgreSQL's own log is kept (${JSON.stringify(failed.logTail)})`);
    const clean = await hostIsClean(lab, deployment.database!.port);
    assert.ok(clean.clean, clean.why);
    assert.equal(await systemPostgres(lab), system, "the machine's own PostgreSQL is untouched");
  });

  test("an earlier session's running database is stopped and removed on connect", async () => {
    const earlier = await templateLab(NAME, { paths });
    const deployment = await earlier.service.deploy(earlier.hostId, 'db-probe', { knobs: { database: true }, port: PORT });
    await earlier.close(); // its supervisor waits 60 s for a heartbeat; the next session does not wait
    assert.ok((await processesIn(lab, `${lab.run}/postgres/data`)).length > 0, 'the database still runs');

    await nextSessionCleans(deployment.database!.port, 'the next session stopped and removed it');
  });

  test('a port held by a connected socket (as a load run leaves many) is passed over for the next', async () => {
    const transport = lab.connections.transportFor(lab.hostId);
    // A connection to the lab's sshd, held open by a sleep in the background: its local port is
    // in use although nothing listens on it. On 127.0.0.1 such a port made PostgreSQL's bind fail
    // once in CI; Benchlab passes over a port in use on any address.
    const held = await transport.exec(
      `bash -c 'exec 3<>/dev/tcp/${lab.address}/22 || exit 1; inode=$(readlink /proc/self/fd/3 | tr -dc 0-9); ` +
        `setsid sleep 120 <&3 >/dev/null 2>&1 & echo "pid $!"; awk -v i="$inode" '"'"'$10 == i { split($2, a, ":"); print "port " a[2] }'"'"' /proc/net/tcp'`,
    );
    const sleeper = /pid (\d+)/.exec(held.stdout)?.[1];
    const taken = Number.parseInt(/port ([0-9A-F]+)/.exec(held.stdout)?.[1] ?? '', 16);
    assert.ok(sleeper && taken > 0, `a held connection and its local port: ${held.stdout} ${held.stderr}`);
    const dir = `${lab.root}/port-probe`;
    try {
      const [postgres] = await findPostgres(transport);
      assert.ok(postgres, 'PostgreSQL is installed on the lab server');
      const free = taken === 29_999 ? 29_998 : 29_999;
      const started = await startPrivatePostgres(transport, { dir, postgres, asRoot: true, ports: [taken, free] }, () => undefined);
      assert.equal(started.facts.port, free);
    } finally {
      await transport.exec(`kill ${sleeper}; [ -f '${dir}/stop.sh' ] && sh '${dir}/stop.sh'; rm -rf '${dir}'`);
    }
    assert.equal(await systemPostgres(lab), system, "the machine's own PostgreSQL is untouched");
  });
});
