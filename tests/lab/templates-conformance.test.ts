// The endpoint contract (server-templates/CONTRACT.md), checked against every template and variant
// deployed for real to the lab's server host over SSH: status codes, exact content types and
// bodies, the 43 KiB payload byte for byte, 404 for what a template does not declare, sync versus
// async /sleep, and a clean host after each stop. Templates that declare a database answer 503 on
// its endpoints with the knob off, and with it on serve them as TechEmpower defines them (shapes,
// n clamped, /updates stored, /fortunes byte for byte, /docs growing), the database gone after stop. The JVM templates (built by Maven on this machine)
// run with one worker thread, so a blocking /sleep shows as two sleeps one after the other; their
// Java-21 variant runs where the lab has such a Java and is refused with an install offer where not.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FORTUNES } from '../../app/templates/template-database.ts';
import { majorOf, pickJava } from '../../app/templates/template-hosts.ts';
import { DATABASE_ENDPOINTS, ENDPOINT_REQUESTS, ENDPOINTS, requirementsFor, type Endpoint, type KnobValue, type Manifest } from '../../app/templates/templates.ts';
import { bundledPaths, loadCatalog } from '../../main/services/templates/catalog.ts';
import { probeHost } from '../../main/services/templates/remote-server.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { REQUIRE_LAB_ENV } from '../support/lab-required.ts';
import { hostIsClean, privateDatabaseUrl, psqlOnServer, templateLab, type TemplateLab } from '../support/template-lab.ts';
import { until } from '../support/until.ts';

const skip = labSkipReason();
const PORT = 18180;
const PAYLOAD = readFileSync(bundledPaths().payloadFile);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  ms: number;
}

/** One GET on a fresh connection, so every answer stands alone. */
function get(address: string, path: string, method = 'GET'): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port: PORT, path, method, agent: false, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), ms: Date.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

function expectOk(answer: Answer, type: string, what: string): void {
  assert.equal(answer.status, 200, `${what}: status`);
  assert.equal(answer.headers['content-type'], type, `${what}: content type`);
  assert.equal(answer.headers['content-length'], String(answer.body.length), `${what}: Content-Length`);
}

type DatabaseEndpoint = (typeof DATABASE_ENDPOINTS)[number];

function isDatabaseEndpoint(endpoint: Endpoint): endpoint is DatabaseEndpoint {
  return (DATABASE_ENDPOINTS as readonly string[]).includes(endpoint);
}

/** A database endpoint of a template deployed with its database knob off: 503 and the sentence. */
async function expectNoDatabase(address: string, endpoint: DatabaseEndpoint): Promise<void> {
  const answer = await get(address, ENDPOINT_REQUESTS[endpoint]);
  assert.equal(answer.status, 503, `/${endpoint} without the database: status`);
  assert.equal(answer.body.toString(), 'no database: deploy with the knob database on\n', `/${endpoint} without the database: body`);
}

/** Each endpoint of a template deployed as the suite deploys it (database knob off). */
async function checkEndpoint(address: string, manifest: Manifest, endpoint: Endpoint): Promise<void> {
  if (!manifest.endpoints.includes(endpoint)) assert.equal((await get(address, `/${endpoint}`)).status, 404, `/${endpoint} is not declared: 404`);
  else if (isDatabaseEndpoint(endpoint)) await expectNoDatabase(address, endpoint);
  else await CHECKS[endpoint](address);
}

const CHECKS: Record<Exclude<Endpoint, DatabaseEndpoint>, (address: string) => Promise<void>> = {
  hello: async (address) => {
    const answer = await get(address, '/hello');
    expectOk(answer, 'text/plain', '/hello');
    assert.equal(answer.body.toString(), 'hello world\n');
  },
  file: async (address) => {
    const answer = await get(address, '/file');
    expectOk(answer, 'application/octet-stream', '/file');
    assert.equal(answer.body.length, 44032);
    assert.ok(answer.body.equals(PAYLOAD), '/file is the payload byte for byte');
    const head = await get(address, '/file', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], '44032');
    assert.equal(head.body.length, 0);
  },
  json: async (address) => {
    const answer = await get(address, '/json');
    expectOk(answer, 'application/json', '/json');
    assert.equal(answer.body.toString(), '{"message":"Hello, World!"}');
  },
  fib: async (address) => {
    const answer = await get(address, '/fib?n=30');
    expectOk(answer, 'text/plain', '/fib');
    assert.equal(answer.body.toString(), '832040\n');
    assert.equal((await get(address, '/fib')).body.toString(), '832040\n', 'n defaults to 30');
    assert.equal((await get(address, '/fib?n=10')).body.toString(), '55\n');
    assert.equal((await get(address, '/fib?n=46')).status, 400);
    assert.equal((await get(address, '/fib?n=abc')).status, 400);
  },
  concat: async (address) => {
    const answer = await get(address, '/concat?n=10000');
    expectOk(answer, 'text/plain', '/concat');
    assert.match(answer.body.toString(), /^[a-z]{10000}$/);
    assert.equal((await get(address, '/concat?n=7')).body.length, 7);
    assert.equal((await get(address, '/concat?n=1000001')).status, 400);
  },
  sleep: async (address) => {
    const answer = await get(address, '/sleep?ms=300');
    expectOk(answer, 'text/plain', '/sleep');
    assert.equal(answer.body.toString(), 'slept 300 ms\n');
    assert.ok(answer.ms >= 300, `answered after ${answer.ms} ms`);
    assert.equal((await get(address, '/sleep?ms=60001')).status, 400);
  },
  health: async (address) => {
    const answer = await get(address, '/health');
    expectOk(answer, 'text/plain', '/health');
    assert.equal(answer.body.toString(), 'ok\n');
  },
};

const WORLD_ROW = (what: string) => (row: unknown) => {
  assert.deepEqual(Object.keys(row as object), ['id', 'randomNumber'], `${what}: {id, randomNumber}`);
  const { id, randomNumber } = row as { id: unknown; randomNumber: unknown };
  assert.ok(Number.isInteger(id) && (id as number) >= 1 && (id as number) <= 10_000, `${what}: id ${String(id)} in 1..10000`);
  assert.ok(Number.isInteger(randomNumber) && (randomNumber as number) >= 1 && (randomNumber as number) <= 10_000, `${what}: randomNumber ${String(randomNumber)} in 1..10000`);
};

async function jsonOf(address: string, path: string, method = 'GET'): Promise<unknown> {
  const answer = await get(address, path, method);
  expectOk(answer, 'application/json', path);
  return JSON.parse(answer.body.toString());
}

/** n of /queries and /updates: clamped to 1..500, 1 when missing or not a number. */
async function checkCounts(address: string, endpoint: 'queries' | 'updates'): Promise<void> {
  for (const [query, count] of [['?n=20', 20], ['?n=0', 1], ['?n=501', 500], ['?n=abc', 1], ['', 1]] as const) {
    const rows = await jsonOf(address, `/${endpoint}${query}`);
    assert.ok(Array.isArray(rows), `/${endpoint}${query} answers an array`);
    assert.equal(rows.length, count, `/${endpoint}${query}: ${count} rows`);
    rows.forEach(WORLD_ROW(`/${endpoint}${query}`));
  }
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** /fortunes exactly: the seeded rows and the one added at request time, sorted by message (code units). */
const FORTUNES_HTML = (() => {
  const rows = [...FORTUNES.map((message, index) => ({ id: index + 1, message })), { id: 0, message: 'Additional fortune added at request time.' }];
  rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const table = rows.map((row) => `<tr><td>${row.id}</td><td>${escapeHtml(row.message)}</td></tr>`).join('');
  return `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${table}</table></body></html>`;
})();

interface Doc {
  id: number;
  title: string;
  body: string;
  count: number;
}

function checkDocs(docs: unknown, what: string): Doc[] {
  assert.ok(Array.isArray(docs), `${what} answers an array`);
  assert.equal(docs.length, 100, `${what}: 100 documents`);
  for (const doc of docs as Doc[]) {
    assert.deepEqual(Object.keys(doc).sort(), ['body', 'count', 'id', 'title'], `${what}: {id, title, body, count}`);
    assert.match(doc.title, /^[a-z]{10}$/);
    assert.match(doc.body, /^[a-z]{100}$/);
    assert.ok(Number.isInteger(doc.count) && doc.count >= 1 && doc.count <= 10_000, `${what}: count ${doc.count}`);
  }
  return docs as Doc[];
}

/** The database endpoints with the knob on; `sql` reads the private database directly, to see what /updates wrote. */
const DATABASE_CHECKS: Record<DatabaseEndpoint, (address: string, sql: (query: string) => Promise<string[]>) => Promise<void>> = {
  db: async (address) => {
    WORLD_ROW('/db')(await jsonOf(address, '/db'));
  },
  queries: async (address) => {
    await checkCounts(address, 'queries');
  },
  updates: async (address, sql) => {
    await checkCounts(address, 'updates');
    const rows = (await jsonOf(address, '/updates?n=20')) as Array<{ id: number; randomNumber: number }>;
    // A row drawn twice in one request may keep either value (a batched update), so only rows drawn once are compared.
    const once = rows.filter((row) => rows.filter((other) => other.id === row.id).length === 1);
    const written = new Map(once.map((row) => [row.id, row.randomNumber]));
    const stored = await sql(`SELECT id || ' ' || randomnumber FROM world WHERE id IN (${[...written.keys()].join(',')}) ORDER BY id`);
    assert.deepEqual(stored, [...written].sort(([a], [b]) => a - b).map(([id, value]) => `${id} ${value}`), '/updates returns what it stored');
  },
  fortunes: async (address) => {
    const answer = await get(address, '/fortunes');
    // A servlet container composes this header itself, from type and charset, without the optional
    // space (Tomcat, Jetty's servlet layer): the same media type.
    assert.match(String(answer.headers['content-type']), /^text\/html; ?charset=utf-8$/, '/fortunes: content type');
    expectOk(answer, String(answer.headers['content-type']), '/fortunes');
    assert.equal(answer.body.toString(), FORTUNES_HTML);
  },
  docs: async (address, sql) => {
    const count = async () => Number((await sql('SELECT count(*) FROM docs'))[0]);
    const before = await count();
    for (const [index, method] of (['GET', 'POST'] as const).entries()) {
      const docs = checkDocs(await jsonOf(address, '/docs', method), `${method} /docs`);
      // Unsorted, as the siege seed's select: the first 100 the database gives, as stored.
      const stored = await sql(`SELECT id || ' ' || title || ' ' || body || ' ' || count FROM docs LIMIT 100`);
      assert.deepEqual(docs.map((doc) => `${doc.id} ${doc.title} ${doc.body} ${doc.count}`), stored, `${method} /docs: 100 stored documents, unsorted`);
      assert.equal(await count(), before + index + 1, `${method} /docs stores one document`);
      const [newest] = await sql(`SELECT title || ' ' || body || ' ' || count FROM docs ORDER BY id DESC LIMIT 1`);
      assert.match(newest!, /^[a-z]{10} [a-z]{100} \d+$/, 'the document stored has the contract\'s random fields');
    }
  },
};

/**
 * The JVM templates: knobs that leave one thread for blocking work, and which variants block on
 * /sleep with them (virtual threads block, but a parked virtual thread frees its carrier).
 */
const JVM: Record<string, { knobs: Record<string, KnobValue>; blocks: Record<string, boolean> }> = {
  tomcat: { knobs: { maxThreads: 1 }, blocks: { sync: true, async: false, virtual: false } },
  undertow: { knobs: { workerThreads: 1 }, blocks: { nonblocking: false, servlet: true } },
  vertx: { knobs: { workerPoolSize: 1 }, blocks: { eventloop: false, blocking: true } },
  spray: { knobs: { threads: 1 }, blocks: { async: false, sync: true } },
  'spring-boot': { knobs: { threads: 1 }, blocks: { sync: true, async: false, webflux: false } },
  // On Undertow, the container only Spring Boot 3 still runs.
  'spring-boot-3': { knobs: { threads: 1, container: 'undertow' }, blocks: { sync: true, async: false } },
  jetty: { knobs: { maxThreads: 1 }, blocks: { blocking: true, async: false } },
};

/** `count` GETs in a row on one keep-alive connection: how many connections they took. */
async function connectionsFor(address: string, count: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  try {
    for (let i = 0; i < count; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = request({ host: address, port: PORT, path: '/hello', agent, timeout: 10_000 }, (response) => {
          sockets.add(response.socket);
          response.resume();
          response.on('end', resolve);
        });
        req.on('timeout', () => req.destroy(new Error('GET /hello timed out')));
        req.on('error', reject);
        req.end();
      });
    }
  } finally {
    agent.destroy();
  }
  return sockets.size;
}

/** The Node templates: plain node:http and the frameworks, each bundled by npm and esbuild on this machine. */
const NODE = ['node', 'node-express', 'node-fastify', 'node-restify'];
/** The contract's plain endpoints on Node 0.8.28, which Benchlab brings itself. */
const NODE_0_8 = 'node-0-8';

/** The packages a Node template's package.json pins (exact versions): what its bundle holds. */
function pinnedPackages(templateId: string): Record<string, string> {
  return JSON.parse(readFileSync(join(bundledPaths().templatesDir, templateId, 'package.json'), 'utf8')).dependencies;
}

const SLEEP_MS = 400;

/**
 * Sends `count` /sleep?ms=400 at once and says how many sleeps ran one after another: 1 when they
 * all overlapped, `count` when the server ran them one at a time. It compares the slowest of the
 * batch with one sleep sent alone just before, on the same server and machine, so a busy machine
 * slows both sides alike: this asserts how a server schedules blocking work, not how fast it is.
 */
async function sleepsInSeries(address: string, count = 2): Promise<number> {
  const alone = (await get(address, `/sleep?ms=${SLEEP_MS}`)).ms;
  const batch = await Promise.all(Array.from({ length: count }, () => get(address, `/sleep?ms=${SLEEP_MS}`)));
  return Math.round(Math.max(...batch.map((answer) => answer.ms)) / alone);
}

describe('template conformance on the lab server', { skip: skip ?? false }, () => {
  let lab: TemplateLab;
  let manifests: Manifest[];

  before(async () => {
    lab = await templateLab('conformance');
    manifests = (await loadCatalog(bundledPaths().templatesDir)).entries.map((entry) => entry.manifest);
  });
  after(async () => {
    await lab?.service.stop(lab.hostId).catch(() => undefined);
    await lab?.close();
  });

  test('the catalog has the templates this suite must cover', () => {
    assert.deepEqual(manifests.map((manifest) => manifest.id).sort(), ['apache-static', NODE_0_8, ...NODE, ...Object.keys(JVM)].sort());
  });

  for (const templateId of [...NODE, NODE_0_8, 'apache-static']) {
    test(`${templateId}: every variant serves the contract, and stopping leaves the host clean`, async (t) => {
      const manifest = manifests.find((candidate) => candidate.id === templateId)!;
      for (const variant of manifest.variants) {
        await t.test(variant.id, async () => {
          const deployment = await lab.service.deploy(lab.hostId, templateId, { variant: variant.id, port: PORT });
          assert.equal(deployment.state, 'ready');
          assert.equal(deployment.url, `http://${lab.address}:${PORT}/`);
          if (NODE.includes(templateId)) {
            const { node, ...bundled } = deployment.components ?? {};
            assert.deepEqual(bundled, pinnedPackages(templateId), 'the deployment records the bundled packages');
            assert.match(node ?? '', /^\d+\.\d+\.\d+$/, 'and the Node it runs on');
          }
          // The Node of 2012, uploaded by Benchlab beside the host's own Node 20, with no packages.
          if (templateId === NODE_0_8) assert.deepEqual(deployment.components, { node: '0.8.28' });
          for (const endpoint of ENDPOINTS) await checkEndpoint(lab.address, manifest, endpoint);
          assert.equal((await get(lab.address, '/no-such-endpoint')).status, 404);
          if (NODE.includes(templateId) || templateId === NODE_0_8) assert.equal(await connectionsFor(lab.address, 150), 1, 'keep-alive without a limit of requests per connection');
          if (manifest.endpoints.includes('sleep')) {
            const inSeries = await sleepsInSeries(lab.address);
            if (variant.id === 'sync') assert.ok(inSeries >= 2, `sync blocks: two sleeps ran ${inSeries} in series`);
            else assert.equal(inSeries, 1, 'async overlaps the two sleeps');
          }
          const stopped = await lab.service.stop(lab.hostId);
          assert.equal(stopped.state, 'stopped');
          assert.match(stopped.message ?? '', /gracefully/);
          const clean = await hostIsClean(lab, PORT);
          assert.ok(clean.clean, clean.why);
        });
      }
    });
  }

  for (const [templateId, jvm] of Object.entries(JVM)) {
    test(`${templateId}: every variant serves the contract on the Java it needs, and stopping leaves the host clean`, async (t) => {
      const manifest = manifests.find((candidate) => candidate.id === templateId)!;
      assert.deepEqual(manifest.variants.map((variant) => variant.id).sort(), Object.keys(jvm.blocks).sort());
      const javas = (await probeHost(lab.connections.transportFor(lab.hostId), undefined)).java;
      for (const variant of manifest.variants) {
        await t.test(variant.id, async () => {
          const needed = requirementsFor(manifest, variant.id).find((requirement) => requirement.runtime === 'java')!;
          const java = pickJava(javas, 'minVersion' in needed ? needed.minVersion : 0);
          if (!java) {
            // This lab has no Java new enough: the deploy must say so and offer the install.
            await assert.rejects(lab.service.deploy(lab.hostId, templateId, { variant: variant.id, knobs: jvm.knobs, port: PORT }), /is missing Java >= \d+ \(found Java/);
            assert.equal(lab.progress.at(-1)?.installOffers[0]?.runtime, 'java');
            t.diagnostic(`no Java >= ${'minVersion' in needed ? needed.minVersion : '?'} on the lab server: the refusal was checked instead`);
            return;
          }
          const deployment = await lab.service.deploy(lab.hostId, templateId, { variant: variant.id, knobs: jvm.knobs, port: PORT });
          assert.equal(deployment.state, 'ready');
          assert.equal(deployment.url, `http://${lab.address}:${PORT}/`);
          const onJava = new RegExp(`listening on port ${PORT} \\(variant ${variant.id}\\b`);
          await until(() => lab.logs.some((line) => onJava.test(line.message)), 'the server says it listens', 5000);
          const said = lab.logs.filter((line) => onJava.test(line.message)).at(-1)!.message;
          assert.match(said, new RegExp(` on Java ${majorOf(java.version)}[.+: ]`), `runs on the Java Benchlab picked (${java.path}): ${said}`);
          for (const endpoint of ENDPOINTS) await checkEndpoint(lab.address, manifest, endpoint);
          assert.equal((await get(lab.address, '/no-such-endpoint')).status, 404);
          assert.equal(await connectionsFor(lab.address, 150), 1, 'keep-alive without a limit of requests per connection');
          const inSeries = await sleepsInSeries(lab.address);
          if (jvm.blocks[variant.id]) assert.ok(inSeries >= 2, `one thread, blocking: two sleeps ran ${inSeries} in series`);
          else assert.equal(inSeries, 1, 'not blocking a thread: the two sleeps overlap');
          const stopped = await lab.service.stop(lab.hostId);
          assert.equal(stopped.state, 'stopped');
          assert.match(stopped.message ?? '', /gracefully/);
          const clean = await hostIsClean(lab, PORT);
          assert.ok(clean.clean, clean.why);
        });
      }
    });
  }

  test('the other JVM knobs: Tomcat on NIO2 with the file cached, Vert.x on 4 event loops, Jetty with 2 request threads and no acceptor', async () => {
    await lab.service.deploy(lab.hostId, 'tomcat', { variant: 'async', knobs: { connector: 'nio2', cacheFile: true }, port: PORT });
    await until(() => lab.logs.some((line) => /connector nio2, maxThreads 200, payload cached in memory/.test(line.message)), 'tomcat says nio2', 5000);
    await CHECKS.file(lab.address);
    await CHECKS.sleep(lab.address);
    await lab.service.deploy(lab.hostId, 'vertx', { variant: 'blocking', knobs: { instances: 4, workerPoolSize: 2 }, port: PORT }, { replace: true });
    await until(() => lab.logs.some((line) => /variant blocking, 4 instances, worker pool 2/.test(line.message)), 'vert.x says 4 instances', 5000);
    await CHECKS.file(lab.address);
    // Four blocking sleeps on a pool of two: two after each other, not one (a pool of four or
    // more) and not four (one thread).
    const inSeries = await sleepsInSeries(lab.address, 4);
    assert.ok(inSeries >= 2 && inSeries < 4, `four sleeps ran ${inSeries} in series`);
    // Jetty's acceptors and selectors hold pool threads of their own: maxThreads 2 is two request threads.
    await lab.service.deploy(lab.hostId, 'jetty', { variant: 'blocking', knobs: { maxThreads: 2, acceptors: 0, selectors: 2, cacheFile: true }, port: PORT }, { replace: true });
    await until(() => lab.logs.some((line) => /variant blocking, maxThreads 2, acceptors 0, selectors 2, payload cached in memory/.test(line.message)), 'jetty says 2 threads', 5000);
    await CHECKS.file(lab.address);
    const jettyInSeries = await sleepsInSeries(lab.address, 4);
    assert.ok(jettyInSeries >= 2 && jettyInSeries < 4, `jetty: four sleeps ran ${jettyInSeries} in series`);
    await lab.service.stop(lab.hostId);
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });

  test('vertx with its compute handlers in JavaScript, on Rhino and on Nashorn, serves the whole contract', async (t) => {
    const manifest = manifests.find((candidate) => candidate.id === 'vertx')!;
    for (const [language, engine] of [['rhino', 'Rhino'], ['nashorn', 'Nashorn']] as const) {
      await t.test(language, async () => {
        await lab.service.deploy(lab.hostId, 'vertx', { variant: 'eventloop', knobs: { language }, port: PORT });
        const says = new RegExp(`handlers in JavaScript on ${engine} \\d+[\\d.]*\\)`);
        await until(() => lab.logs.some((line) => says.test(line.message)), `vert.x says ${engine}`, 5000);
        // /hello, /json, /fib and /concat come from the script: the same bytes as Java's.
        for (const endpoint of ENDPOINTS) await checkEndpoint(lab.address, manifest, endpoint);
        await lab.service.stop(lab.hostId);
        const clean = await hostIsClean(lab, PORT);
        assert.ok(clean.clean, clean.why);
      });
    }
  });

  test('spring-boot on Jetty with one request thread (sync and async), and webflux on 2 event loops with the file cached', async (t) => {
    const manifest = manifests.find((candidate) => candidate.id === 'spring-boot')!;
    for (const variant of ['sync', 'async']) {
      await t.test(variant, async () => {
        await lab.service.deploy(lab.hostId, 'spring-boot', { variant, knobs: { container: 'jetty', threads: 1 }, port: PORT });
        await until(() => lab.logs.some((line) => new RegExp(`variant ${variant}, jetty 12\\.[\\d.]+, threads 1,`).test(line.message)), 'spring boot says jetty', 5000);
        for (const endpoint of ENDPOINTS) await checkEndpoint(lab.address, manifest, endpoint);
        assert.equal(await connectionsFor(lab.address, 150), 1, 'keep-alive without a limit of requests per connection');
        const inSeries = await sleepsInSeries(lab.address);
        if (variant === 'sync') assert.ok(inSeries >= 2, `one thread, blocking: two sleeps ran ${inSeries} in series`);
        else assert.equal(inSeries, 1, 'not blocking a thread: the two sleeps overlap');
        await lab.service.stop(lab.hostId);
        const clean = await hostIsClean(lab, PORT);
        assert.ok(clean.clean, clean.why);
      });
    }
    await t.test('webflux', async () => {
      await lab.service.deploy(lab.hostId, 'spring-boot', { variant: 'webflux', knobs: { eventLoops: 2, cacheFile: true }, port: PORT });
      await until(() => lab.logs.some((line) => /variant webflux, reactor-netty [\d.]+, 2 event loops, payload cached in memory/.test(line.message)), 'spring boot says netty', 5000);
      await CHECKS.file(lab.address);
      await CHECKS.sleep(lab.address);
      await lab.service.stop(lab.hostId);
      const clean = await hostIsClean(lab, PORT);
      assert.ok(clean.clean, clean.why);
    });
  });

  // One variant per template, its default: the private database is the deployment's, started and
  // removed by the deploy whatever the variant. Each variant's own way of calling the database is
  // checked against a private PostgreSQL, without the lab, by tests/templates/jvm-database.test.ts
  // and node-database.test.ts.
  test('every template with a database serves the database endpoints with the knob on, and stopping removes the database', async (t) => {
    for (const manifest of manifests.filter((candidate) => candidate.database)) {
      for (const variant of manifest.variants.filter((candidate) => candidate.id === manifest.defaultVariant)) {
        await t.test(`${manifest.id} ${variant.id}`, async (t) => {
          const needed = requirementsFor(manifest, variant.id).find((requirement) => requirement.runtime === 'java');
          const javas = needed ? (await probeHost(lab.connections.transportFor(lab.hostId), undefined)).java : [];
          if (needed && !pickJava(javas, 'minVersion' in needed ? needed.minVersion : 0)) {
            // CI installs the Java every template needs: there, a missing one fails instead of skipping.
            if (process.env[REQUIRE_LAB_ENV] === '1') assert.fail(`no Java new enough on the lab server for ${variant.id}`);
            t.skip(`no Java new enough on the lab server for ${variant.id}`);
            return;
          }
          const deployment = await lab.service.deploy(lab.hostId, manifest.id, { variant: variant.id, knobs: { [manifest.database!.knob]: true }, port: PORT });
          assert.equal(deployment.state, 'ready');
          assert.ok(deployment.database, 'the deployment records its database');
          const url = await privateDatabaseUrl(lab);
          for (const endpoint of DATABASE_ENDPOINTS) {
            if (manifest.endpoints.includes(endpoint)) await DATABASE_CHECKS[endpoint](lab.address, (query) => psqlOnServer(lab, url, query));
            else assert.equal((await get(lab.address, `/${endpoint}`)).status, 404, `/${endpoint} is not declared: 404`);
          }
          await lab.service.stop(lab.hostId);
          const clean = await hostIsClean(lab, PORT);
          assert.ok(clean.clean, clean.why);
        });
      }
    }
  });

  test('node with 2 cluster workers: both serve, sync sleeps overlap across them', async () => {
    await lab.service.deploy(lab.hostId, 'node', { variant: 'sync', knobs: { workers: 2, cacheFile: true }, port: PORT });
    // Ready means one worker answers /health; the other may still be starting.
    await until(() => lab.logs.some((line) => /primary \(pid \d+\): 2 workers ready/.test(line.message)), 'both workers listening', 5000);
    await CHECKS.file(lab.address);
    // Four blocking sleeps: one process runs all four in series; two (cluster's round robin) two.
    const inSeries = await sleepsInSeries(lab.address, 4);
    assert.ok(inSeries >= 2 && inSeries < 4, `four sleeps ran ${inSeries} in series`);
    await lab.service.stop(lab.hostId);
    const clean = await hostIsClean(lab, PORT);
    assert.ok(clean.clean, clean.why);
  });
});
