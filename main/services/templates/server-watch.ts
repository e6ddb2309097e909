// Following a server this Benchlab runs: its log stream and heartbeat while it runs, and the report
// (with its log) when it, or the private database it was deployed with, ends without being asked to.
// A server whose database has ended is stopped too: every answer it gave from then on on a database
// endpoint would be a failure that looks like the server's.

import type { Host } from '../../../app/hosts/hosts.ts';
import { databaseVersionText } from '../../../app/templates/recorded-database.ts';
import { describeHolder, describeServer } from '../../../app/templates/server-words.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { Active, DeploymentBook } from './deployment-book.ts';
import { ServerLogStream, tailText } from './log-stream.ts';
import { beat, inspectRun, stopRun, watchLogs, type RecordedDeployment } from './remote-server.ts';

/** Streams the server's logs and beats its heartbeat; notices when it ends on its own. */
export function follow(book: DeploymentBook, active: Active, host: Host, transport: HostTransport, fromStart: boolean): void {
  unfollow(active);
  const run = active.run!;
  const stream = new ServerLogStream((line) => book.log(`${host.name} ${active.manifest.id}: ${line}`));
  const watch = {};
  active.logStream = stream;
  active.watch = watch;
  watchLogs(transport, run, active.manifest.logs, { fromStart, onOutput: (chunk) => stream.push(chunk) }).then(
    () => {
      stream.flush();
      if (active.watch === watch) book.followUp(ended(book, active, host, transport));
    },
    () => stream.flush(), // the connection dropped: a reconnect resumes
  );
  const interval = book.options.heartbeatIntervalMs ?? 5000;
  active.heartbeat = setInterval(() => {
    beat(transport, run, active.id).then(
      (found) => {
        if (found.state !== 'alive' && active.watch === watch) book.followUp(ended(book, active, host, transport, found.state === 'database-ended' ? found.logTail : null));
      },
      () => undefined, // the connection is down; the supervisor waits for us up to its limit
    );
  }, interval);
  active.heartbeat.unref?.();
}

export function unfollow(active: Active): void {
  active.watch = null;
  if (active.heartbeat) clearInterval(active.heartbeat);
  active.heartbeat = null;
}

/**
 * The server's group ended without Benchlab stopping it, or its private database did (`databaseLog`:
 * the database's last log lines): report it with its log, stop what still runs, clean the run dir.
 */
export async function ended(book: DeploymentBook, active: Active, host: Host, transport: HostTransport, databaseLog: string[] | null = null): Promise<void> {
  if (active.stopping || active.deployment.state !== 'ready' || book.get(active.deployment.hostId) !== active) return;
  active.stopping = true;
  unfollow(active);
  let tail = active.logStream?.tail() ?? [];
  let replacedBy: RecordedDeployment | null = null;
  try {
    // Another Benchlab's deployment in its place is theirs now: named, never stopped from here.
    const there = await inspectRun(transport, active.run!, 0);
    if (there.deployment && there.deployment.id !== active.id) replacedBy = there.deployment;
    else {
      // A run loading it records why its server went, and stops its load first.
      if (databaseLog) book.options.takingDown?.({ hostId: active.deployment.hostId, port: active.deployment.port, why: `stopped by this Benchlab: its private database ${databaseName(active)}stopped running` });
      const stopped = await stopRun(transport, active.run!, active.manifest.stop.signal, active.manifest.stop.graceSeconds, active.manifest.logs);
      if (stopped.logTail.length > 0) tail = stopped.logTail;
      // Why the database ended is in its own log, not the server's.
      if (databaseLog && databaseLog.length > 0) tail = databaseLog;
    }
  } catch {
    // the host is unreachable; the next connect cleans up
  }
  const message = replacedBy
    ? `${active.manifest.name} on ${host.name} was replaced by ${describeServer(replacedBy)}, ${describeHolder(replacedBy.holder, null)}; this Benchlab was not asked.`
    : databaseLog
      ? `The private database of ${active.manifest.name} on ${host.name} ${databaseName(active)}stopped running without being asked to, so Benchlab stopped the server too: its database endpoints could only fail.`
      : `${active.manifest.name} stopped running on ${host.name} without being asked to.`;
  book.update(active, { state: 'failed', step: null, message, logTail: tail });
  book.options.log.error('templates', `${message}${tailText(tail)}`);
  active.stopping = false;
}

/** "(FerretDB v1.24.2 (MongoDB 7.0.42)) ", or "" when the deployment recorded no database. */
function databaseName(active: Active): string {
  const database = active.deployment.database;
  return database ? `(${databaseVersionText(database)}) ` : '';
}
