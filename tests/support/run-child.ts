// A Benchlab back end in a child process that starts one load session and reports on stdout, so a
// test can kill -9 it mid-run: `node tests/support/run-child.ts DATA_DIR START_ARGS_JSON`.
// `hostId` in the args may be "local" (This machine) or a lab role whose target it connects first.
// Each line is JSON: `started`, every charted `point`, and (stamped with the time it was published)
// every `state` the run published (what `runs.live` answers) and every `host` connection change. With
// `exitWhenDone` it closes its services and exits once the session is over (`done`). With
// `storeFullAfter: N` the store is capped at its size once N measured seconds are charted
// (`PRAGMA max_page_count`), so its next writes fail with SQLITE_FULL: a full data disk, no tmpfs.

import { createDispatcher } from '../../main/api/dispatch.ts';
import { createHandlers } from '../../main/api/handlers.ts';
import { createServices } from '../../main/services/services.ts';

const [dataDir, argsJson] = process.argv.slice(2);
const args = JSON.parse(argsJson!) as Record<string, unknown> & { connect?: Array<{ name: string; address: string; keyPath: string; fingerprint: string }>; exitWhenDone?: boolean; storeFullAfter?: number };
const services = createServices({ dataDir: dataDir!, transport: 'cli', version: 'test' });
const call = createDispatcher(createHandlers(services), (error) => console.error(error));
const must = async (name: string, body: unknown) => {
  const outcome = await call(name, body);
  if (!outcome.ok) {
    console.log(JSON.stringify({ failed: `${name}: ${outcome.error.message}` }));
    process.exit(1);
  }
  return outcome.result as Record<string, unknown>;
};

const ids: number[] = [];
if (args.connect) {
  for (const host of args.connect) {
    const added = await must('hosts.add', { name: host.name, address: host.address, port: 22, user: 'root', auth: 'key', keyPath: host.keyPath });
    services.hosts.pinKey(added.id as number, host.fingerprint);
    await must('hosts.connect', { id: added.id });
    ids.push(added.id as number);
  }
} else {
  ids.push((await must('hosts.addLocal', {})).id as number);
}
let measuredPoints = 0;
let storeCapped = false;
services.bus.subscribe('runs.points', (batch) => {
  services.runs.ack(batch.sessionId, batch.seq);
  measuredPoints += batch.points.filter((point) => !point.warmup).length;
  if (args.storeFullAfter !== undefined && measuredPoints >= args.storeFullAfter && !storeCapped) {
    storeCapped = true;
    services.db.pragma(`max_page_count = ${services.db.pragma('page_count', { simple: true }) as number}`);
  }
  for (const point of batch.points) console.log(JSON.stringify({ point: { t: point.t, at: point.at, warmup: point.warmup, rps: point.rps, errorsPerS: point.errorsPerS } }));
});
services.bus.subscribe('runs.state', ({ profile: _profile, latencyMeaning: _meaning, steps, ...run }) => {
  const failed = steps.reduce((sum, step) => sum + (step.summary?.failed ?? 0), 0);
  console.log(JSON.stringify({ state: { ...run, failed, publishedAt: Date.now() } }));
});
services.bus.subscribe('hosts.connection', (connection) => console.log(JSON.stringify({ host: { ...connection, publishedAt: Date.now() } })));
const started = await must('runs.start', { clientHostId: ids[0], serverHostId: ids[1] ?? null, profile: args.profile });
console.log(JSON.stringify({ started: started.sessionId }));
if (args.exitWhenDone) {
  const end = await services.runs.finished(started.sessionId as number);
  await services.close();
  console.log(JSON.stringify({ done: end.status }));
  process.exit(0);
}
