// Following a server this Benchlab runs: its log stream and heartbeat while it runs, and the report
// (with its log) when it ends without being asked to.

import type { Host } from '../../../app/hosts/hosts.ts';
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
      (state) => {
        if (state !== 'alive' && active.watch === watch) book.followUp(ended(book, active, host, transport));
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

/** The server's group ended without Benchlab stopping it: report it with its log, clean the run dir. */
export async function ended(book: DeploymentBook, active: Active, host: Host, transport: HostTransport): Promise<void> {
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
      const stopped = await stopRun(transport, active.run!, active.manifest.stop.signal, active.manifest.stop.graceSeconds, active.manifest.logs);
      if (stopped.logTail.length > 0) tail = stopped.logTail;
    }
  } catch {
    // the host is unreachable; the next connect cleans up
  }
  const message = replacedBy
    ? `${active.manifest.name} on ${host.name} was replaced by ${describeServer(replacedBy)}, ${describeHolder(replacedBy.holder, null)}; this Benchlab was not asked.`
    : `${active.manifest.name} stopped running on ${host.name} without being asked to.`;
  book.update(active, { state: 'failed', step: null, message, logTail: tail });
  book.options.log.error('templates', `${message}${tailText(tail)}`);
  active.stopping = false;
}
