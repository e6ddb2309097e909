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
