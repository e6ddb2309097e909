// The server Benchlab's run dir on a host holds, read there rather than from memory: who it belongs
// to (the occupant a deploy would replace), what runs now in words, stopping it (ours, a leftover,
// or another Benchlab's on the user's word), and on each connect resuming ours or cleaning a leftover.

import type { Host } from '../../../app/hosts/hosts.ts';
import { ApiError } from '../../../app/common/errors.ts';
import type { Deployment, ServerOccupant } from '../../../app/templates/templates-contract.ts';
import { describeHolder, describeServer } from '../../../app/templates/server-words.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { BUSY_STATES, type DeploymentBook } from './deployment-book.ts';
import { inspectRun, stopRun } from './remote-server.ts';
import { heldElsewhere, ownershipOf } from './server-owner.ts';
import { ended, follow, unfollow } from './server-watch.ts';

/** The server running on the host that a deploy would have to take down: ours, or one another Benchlab drives. */
export async function occupantOf(book: DeploymentBook, hostId: number, ownPlanHold: string | null = null): Promise<ServerOccupant | null> {
  const active = book.get(hostId);
  if (active && (active.deployment.state === 'ready' || BUSY_STATES.has(active.deployment.state))) {
    const { deployment } = active;
    return {
      templateName: deployment.templateName,
      variant: deployment.variant,
      port: deployment.port,
      startedBy: 'this',
      state: deployment.state,
      heartbeatAgeSeconds: null,
      deploymentId: active.id,
      holder: book.options.holder ?? null,
      runs: book.loadsOn(hostId, deployment.port),
      heldBy: ownPlanHold === null ? null : `${ownPlanHold} of this Benchlab`,
    };
  }
  const transport = book.options.connections.transportFor(hostId);
  const inspection = await inspectRun(transport, await book.runDir(transport), 0);
  const owner = ownershipOf(inspection, null, book.liveAge);
  if (owner.kind !== 'other') return null;
  const recorded = owner.recorded;
  return {
    templateName: recorded?.templateName ?? 'a server',
    variant: recorded?.variant ?? null,
    port: recorded?.port ?? null,
    startedBy: 'other',
    state: 'ready',
    heartbeatAgeSeconds: owner.heartbeatAgeSeconds,
    deploymentId: recorded?.id ?? null,
    holder: recorded?.holder ?? null,
    runs: book.loadsOn(hostId, recorded?.port ?? null),
    heldBy: inspection.heldBy,
  };
}

/** What Benchlab runs on the host now, read there (not from memory), in words: said when a run's server changed. */
export async function serverNowOn(book: DeploymentBook, hostId: number): Promise<string> {
  const host = book.options.hosts.get(hostId);
  const transport = book.options.connections.transportFor(hostId);
  const inspection = await inspectRun(transport, await book.runDir(transport), 0);
  const recorded = inspection.deployment;
  if (!inspection.alive || !recorded) return `nothing of Benchlab's runs on ${host.name} now`;
  const ours = book.get(hostId)?.id === recorded.id;
  return `${host.name} now runs ${describeServer(recorded)}, ${ours ? 'deployed from this Benchlab' : describeHolder(recorded.holder, inspection.heartbeatAgeSeconds)}`;
}

/**
 * Stops what runs on the host: our deployment, or whatever an earlier session left there. A server
 * another live Benchlab holds is refused, unless `deploymentId` names it (the user confirmed).
 */
export async function stopServer(book: DeploymentBook, hostId: number, options: { deploymentId?: string | undefined }): Promise<Deployment> {
  const current = book.get(hostId);
  if (current?.controller) {
    current.controller.abort();
    await current.settled;
    return current.deployment;
  }
  const host = book.options.hosts.get(hostId);
  const transport = book.options.connections.transportFor(hostId);
  const run = current?.run ?? (await book.runDir(transport));
  const inspection = await inspectRun(transport, run, 0);
  const recorded = inspection.deployment;
  const owner = ownershipOf(inspection, current?.id ?? null, book.liveAge);
  if (owner.kind === 'other' && (options.deploymentId === undefined || options.deploymentId !== recorded?.id)) {
    throw new ApiError('conflict', heldElsewhere(host.name, owner, book.loadsOn(hostId, recorded?.port ?? null), 'not stopped', book.options.frontDoor));
  }
  // Our card follows the stop only while the run dir holds our server (or nothing any more).
  const active = owner.kind === 'ours' || owner.kind === 'none' ? current : undefined;
  if (owner.kind === 'other') book.log(`${host.name}: stopping ${describeServer(recorded)}, ${describeHolder(recorded?.holder, owner.heartbeatAgeSeconds)}, as asked`);
  if (active) {
    active.stopping = true;
    unfollow(active);
    book.update(active, { state: 'stopping', step: null, message: null });
  }
  const port = active?.deployment.port ?? recorded?.port;
  if (inspection.alive && port) book.options.takingDown?.({ hostId, port, why: 'stopped by this Benchlab' });
  try {
    const stopped = await stopRun(
      transport,
      run,
      active?.manifest.stop.signal ?? recorded?.stopSignal ?? 'TERM',
      active?.manifest.stop.graceSeconds ?? recorded?.graceSeconds ?? 5,
      active?.manifest.logs ?? recorded?.logs ?? [],
    );
    const what = active?.manifest.name ?? recorded?.templateName ?? 'the server';
    const message = stopped.how === 'none' ? `${what} was not running; the host is clean.` : `Stopped ${what} (${stopped.how === 'graceful' ? 'gracefully' : 'killed after the grace period'}); the host is clean.`;
    book.log(`${host.name}: ${message}`);
    if (active) {
      book.update(active, { state: 'stopped', step: null, message, url: null, logTail: [] });
      return active.deployment;
    }
    const leftover: Deployment = {
      hostId,
      hostName: host.name,
      templateId: recorded?.templateId ?? 'unknown',
      templateName: recorded?.templateName ?? 'unknown',
      variant: recorded?.variant ?? '',
      knobs: {},
      port: recorded?.port ?? 0,
      state: 'stopped',
      step: null,
      message,
      logTail: [],
      url: null,
      installOffers: [],
      startedAt: null,
      readyMs: null,
      database: null,
      updatedAt: new Date().toISOString(),
    };
    book.options.bus.publish('templates.progress', leftover);
    return leftover;
  } finally {
    if (active) active.stopping = false;
  }
}

/** A host (re)connected: resume following our server, or clean what an earlier session left. */
export async function onConnected(book: DeploymentBook, hostId: number): Promise<void> {
  const active = book.get(hostId);
  if (active?.controller) return; // a deploy is in progress on this very connection
  let host: Host;
  let transport: HostTransport;
  try {
    host = book.options.hosts.get(hostId);
    transport = book.options.connections.transportFor(hostId);
  } catch {
    return;
  }
  if (active?.deployment.state === 'ready' && active.run) {
    const inspection = await inspectRun(transport, active.run, 0);
    if (inspection.alive && inspection.deployment?.id === active.id) {
      follow(book, active, host, transport, false);
      book.log(`${host.name}: reconnected; ${active.manifest.name} is still running`);
      return;
    }
    await ended(book, active, host, transport);
    return;
  }
  const run = await book.runDir(transport);
  const inspection = await inspectRun(transport, run, 0);
  if (!inspection.present) return;
  const recorded = inspection.deployment;
  const name = recorded?.templateName ?? 'a server';
  if (inspection.alive && inspection.heartbeatAgeSeconds !== null && inspection.heartbeatAgeSeconds < book.liveAge) {
    book.options.log.warn('templates', `${host.name}: ${name} runs there for another Benchlab session (heartbeat ${inspection.heartbeatAgeSeconds} s ago); left alone`);
    return;
  }
  const stopped = await stopRun(transport, run, recorded?.stopSignal ?? 'TERM', recorded?.graceSeconds ?? 5, recorded?.logs ?? []);
  book.options.log.warn(
    'templates',
    stopped.how === 'none'
      ? `${host.name}: removed the files of ${name} an earlier session left (it was no longer running)`
      : `${host.name}: found ${name} left running by an earlier session; stopped it (${stopped.how}) and cleaned up`,
  );
}
