// The load clients of `benchlab run` as the command line names them: `--client HOST` repeated, each
// optionally with a weight after a colon (`--client lab-client:2`). A login's port comes before its
// weight (`root@10.0.0.2:22:2`), so `root@10.0.0.2:2222` stays a host on port 2222.

import type { PlanFileClient } from '../../app/plans/plan-file.ts';
import { parseLogin } from '../../app/hosts/host-ref.ts';
import { UsageError } from './cli-kit.ts';

const WEIGHT_SUFFIX = /^(.+):(\d+(?:\.\d+)?)$/;
const MAX_WEIGHT = 1000;

/** `HOST` or `HOST:WEIGHT` → the host reference and its weight (none when not given). */
export function parseClientRef(text: string): PlanFileClient {
  const ref = text.trim();
  const suffix = WEIGHT_SUFFIX.exec(ref);
  if (!suffix || parseLogin(ref)) return { host: ref };
  const [, host, weightText] = suffix as unknown as [string, string, string];
  const weight = Number(weightText);
  if (!(weight > 0) || weight > MAX_WEIGHT) throw new UsageError(`--client ${ref}: a weight must be above 0 and at most ${MAX_WEIGHT}`);
  return { host, weight };
}

/** The --client options in order; a host named twice is refused (each client runs its own agent). */
export function parseClientRefs(texts: readonly string[]): PlanFileClient[] {
  const clients = texts.map(parseClientRef);
  const twice = clients.find((client, index) => clients.findIndex((other) => other.host === client.host) < index);
  if (twice) throw new UsageError(`--client ${twice.host} is given twice: name each client host once`);
  return clients;
}
