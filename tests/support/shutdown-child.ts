// A Benchlab back end in a child process that closes while work is in flight, so a test sees what a
// user closing the app would: an uncaught error shows as a non-zero exit and a stack on stderr, a
// handle left open as a process that never exits. `node tests/support/shutdown-child.ts DATA_DIR
// ARGS_JSON`, where `scenario` is
// - `connect`: This machine connects and the services close at once, its connect check in flight;
// - `hung-check`: a connect check that never ends is in flight (bounded by `waitMs`);
// - `run`: a load session on This machine against `target` closes after two measured seconds.
// Each then asks for `app.info` while closing (the answer is printed), writes a log line after the
// close, and ends on its own. Output lines are JSON: `started`, `point`, `refused`, `log`, `closed`.

import { createDispatcher } from '../../main/api/dispatch.ts';
import { createHandlers } from '../../main/api/handlers.ts';
import { createServices } from '../../main/services/services.ts';

const [dataDir, argsJson] = process.argv.slice(2);
const args = JSON.parse(argsJson!) as { scenario: 'connect' | 'hung-check' | 'run'; target?: string; waitMs?: number };
const services = createServices({ dataDir: dataDir!, transport: 'cli', version: 'test', ...(args.waitMs ? { shutdownWaitMs: args.waitMs } : {}) });
const call = createDispatcher(createHandlers(services), (error) => console.error(error), services.requests);
const print = (message: unknown) => console.log(JSON.stringify(message));
services.bus.subscribe('log', (line) => print({ log: line }));

async function must(name: string, body: unknown): Promise<Record<string, unknown>> {
  const outcome = await call(name, body);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  return outcome.result as Record<string, unknown>;
}

const local = await must('hosts.addLocal', {});
if (args.scenario === 'hung-check') services.connectChecks.register({ owner: 'test', what: 'a check that never ends', run: () => new Promise(() => undefined) });
await must('hosts.connect', { id: local.id });

if (args.scenario === 'run') {
  let measured = 0;
  const twoSeconds = new Promise<void>((done) => {
    services.bus.subscribe('runs.points', (batch) => {
      services.runs.ack(batch.sessionId, batch.seq);
      for (const point of batch.points) {
        print({ point: { t: point.t, warmup: point.warmup } });
        if (!point.warmup && ++measured === 2) done();
      }
    });
  });
  const profile = { target: args.target, request: { path: '/x' }, load: { model: 'closed', connections: 2, durationS: 60 } };
  const started = await must('runs.start', { clientHostId: local.id, serverHostId: null, profile });
  print({ started: started.sessionId });
  await twoSeconds;
}

const closing = services.close();
print({ refused: await call('app.info', {}) });
await closing;
services.log.info('test', 'a line written after the store closed');
print({ closed: true });
