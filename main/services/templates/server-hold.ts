// One plan per server host at a time, across Benchlab processes and machines: a plan holds the host
// (an exclusive lock beside Benchlab's run dir on it, host-scripts.ts holdScript) from before its
// first preset to its end, so a second plan is refused before it touches anything, naming who holds
// the host. The lock lives as long as the command keeping it: released by Benchlab, or by the host
// when Benchlab's link closes (it ended, was killed or lost the host). A deploy that is not a plan's
// holds the host too while it runs (holdForDeploy), so it is refused while a plan holds it, named.

import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { holdScript } from './host-scripts.ts';

const ANSWER_MS = 30_000;
const RELEASE_MS = 10_000;

/** Who holds a host, as written beside its run dir. */
export interface HoldRecord {
  /** What holds it: `plan "Overnight"`. */
  what: string;
  /** Which Benchlab, in words. */
  holder: string | null;
  since: string;
}

export interface HostHold {
  /** Lets the host go (idempotent). */
  release(): Promise<void>;
}

/** A hold record as words: `plan "Overnight" of the benchlab CLI (pid 4242) (since …)`. */
export function describeRecord(text: string): string {
  try {
    const record = JSON.parse(text) as Partial<HoldRecord>;
    if (typeof record.what === 'string') return `${record.what}${record.holder ? ` of ${record.holder}` : ''}${record.since ? ` (since ${record.since})` : ''}`;
  } catch {
    // written a moment ago and not yet complete: the holder is unnamed
  }
  return 'another plan (it has not said which yet)';
}

/** Holds the host, or refuses with who holds it. A host without flock is not held (said in `unheld`). */
export async function holdHost(transport: HostTransport, hostName: string, run: string, record: HoldRecord, signal?: AbortSignal): Promise<HostHold & { unheld: string | null }> {
  let out = '';
  let answered: (line: string) => void = () => undefined;
  const answer = new Promise<string>((resolve) => (answered = resolve));
  const keeper = await transport.start(`sh -c ${shellQuote(holdScript(run, JSON.stringify(record)))}`, {
    onStdout: (chunk) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end >= 0) answered(out.slice(0, end));
    },
  });
  void keeper.exited.then(() => answered(out.trim() || 'ended'));
  const timer = setTimeout(() => answered('timeout'), ANSWER_MS);
  const abort = () => answered('cancelled');
  signal?.addEventListener('abort', abort, { once: true });
  const line = await answer.finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  });
  const release = async () => {
    keeper.end();
    const bounded = new Promise((resolve) => setTimeout(resolve, RELEASE_MS).unref?.());
    await Promise.race([keeper.exited, bounded]);
  };
  if (line === 'held') return { release, unheld: null };
  await release();
  if (line === 'no-flock') return { release: async () => undefined, unheld: `${hostName} has no flock (util-linux): two plans there at once are not prevented` };
  if (line.startsWith('busy')) throw new ApiError('conflict', `${hostName} is held by ${describeRecord(line.slice(5))}`);
  if (line === 'cancelled') throw new ApiError('cancelled', `holding ${hostName} was cancelled`);
  throw new ApiError('unavailable', `cannot hold ${hostName} for the plan: ${line === 'timeout' ? 'the host did not answer' : line}`);
}

/**
 * Holds the host for one deploy that is not a plan's (the Templates page, `benchlab deploy`), until
 * it has ended: refused, naming the plan, while a plan (of any Benchlab) holds the host. A host that
 * cannot be held (no flock, no answer) is deployed to as before, with `warn` told why.
 */
export async function holdForDeploy(
  transport: HostTransport,
  hostName: string,
  run: string,
  record: HoldRecord,
  templateName: string,
  warn: (message: string) => void,
  signal?: AbortSignal,
): Promise<HostHold> {
  try {
    const held = await holdHost(transport, hostName, run, record, signal);
    if (held.unheld) warn(held.unheld);
    return held;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'cancelled') throw error;
    if (error instanceof ApiError && error.code === 'conflict') {
      throw new ApiError('conflict', `${error.message}: ${templateName} was not deployed and nothing on ${hostName} was touched. Deploy once that plan has ended, or choose another host.`);
    }
    warn(`${hostName}: could not check that no plan holds it (${error instanceof Error ? error.message : String(error)}); deploying anyway`);
    return { release: async () => undefined };
  }
}

/** A plan of this very Benchlab holds the host: the refusal of a deploy that is not that plan's. */
export function heldByOwnPlan(hostName: string, what: string, templateName: string): ApiError {
  return new ApiError('conflict', `${hostName} is held by ${what} of this Benchlab: ${templateName} was not deployed and nothing on ${hostName} was touched. Deploy once that plan has ended, or choose another host.`);
}
