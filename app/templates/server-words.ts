// The words that name a server Benchlab runs on a host, who holds it and which runs load it: one
// wording for the back end's refusals, the plan runner and the pages that ask before taking one down.

/** "Node.js (node:http) (async) on port 8080" */
export function describeServer(server: { templateName?: string | undefined; variant?: string | null | undefined; port?: number | null | undefined } | null): string {
  return `${server?.templateName ?? 'a server'}${server?.variant ? ` (${server.variant})` : ''}${server?.port ? ` on port ${server.port}` : ''}`;
}

/** "held by the benchlab CLI (pid 4242 on ci-7), heartbeat 2 s ago" */
export function describeHolder(holder: string | null | undefined, heartbeatAgeSeconds: number | null): string {
  const beat = heartbeatAgeSeconds === null ? '' : `, heartbeat ${heartbeatAgeSeconds} s ago`;
  return `held by ${holder ?? 'another Benchlab (one that does not say which)'}${beat}`;
}

/** "; run “A” loads it now": the sessions loading the server, said wherever it would be taken down. */
export function describeLoads(runs: readonly string[]): string {
  if (runs.length === 0) return '';
  return `; ${runs.length === 1 ? 'run' : 'runs'} ${runs.map((name) => `“${name}”`).join(', ')} ${runs.length === 1 ? 'loads' : 'load'} it now`;
}

/** Where the user reads a refusal: a page of the app, or the benchlab CLI (which has no Stop button). */
export type FrontDoor = 'app' | 'cli';

/** A host name as one shell word in a command the user may paste. */
function shellWord(text: string): string {
  return /^[\w.@:+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * What takes down a server another live Benchlab holds, for this front door's user: in the app, the
 * confirmation that names the deployment; from the CLI, `benchlab stop` naming it.
 */
export function howToStopHeld(frontDoor: FrontDoor, hostName: string, deploymentId: string | null): string {
  if (frontDoor === 'app') return 'Stop it from that Benchlab, or confirm stopping that very deployment here.';
  const named = deploymentId ? ` --deployment ${shellWord(deploymentId)}` : '';
  return `Stop it from that Benchlab (Ctrl-C where \`benchlab deploy\` or \`benchlab run\` serves it), or stop that very deployment: \`benchlab stop ${shellWord(hostName)}${named}\`.`;
}

/** What clears a server host for a plan: the Templates page's Stop in the app, `benchlab stop` from the CLI. */
export function howToFreeHost(frontDoor: FrontDoor, hostName: string, occupant: { startedBy: 'this' | 'other'; deploymentId: string | null }): string {
  if (frontDoor === 'app') return 'Stop that server first, or choose another server host.';
  const named = occupant.startedBy === 'other' && occupant.deploymentId ? ` --deployment ${shellWord(occupant.deploymentId)}` : '';
  return `Stop that server first (\`benchlab stop ${shellWord(hostName)}${named}\`, or Ctrl-C where it is served), or choose another server host.`;
}

/**
 * Said instead of offering a stop or a replace that a plan's hold of the host would refuse:
 * "The host is held by plan "Overnight" of the benchlab CLI (pid 7 on ci): Go can be deployed once that plan has ended".
 */
export function describeHostHeld(heldBy: string, afterwards: string): string {
  return `The host is held by ${heldBy}: ${afterwards} once that plan has ended`;
}
