// Measures a host's clock offset to Benchlab's through the agent: starts it in the clock role over
// the host's transport, sends pings one after another (each waits for its pong, so none queues
// behind another), times each round trip on Benchlab's µs clock, and hands the probes to the
// estimator (app/runs/clock-offset.ts), which keeps the fastest. How long the agent took from being
// started to its first answer is kept beside the offset (readyMs: the host's setup time, which the
// coordinated start's lead grows with). The agent is stopped whatever happens, so nothing is left
// running on the host.

import { performance } from 'node:perf_hooks';
import { ApiError } from '../../../app/common/errors.ts';
import { estimateClockOffset, type ClockOffset, type ClockProbe } from '../../../app/runs/clock-offset.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { AgentHost } from './agent-host.ts';
import { RemoteAgent } from './remote-agent.ts';

export const DEFAULT_CLOCK_PROBES = 16;
/** A pong slower than this means the link is not fit to measure a clock over. */
export const PONG_TIMEOUT_MS = 2000;
/** The clock agent ends by itself after this long, should Benchlab vanish without stopping it. */
const CLOCK_CAP_S = 60;

/** Benchlab's clock, read the way the agent reads the host's (µs resolution, epoch ms). */
function benchlabNowMs(): number {
  return performance.timeOrigin + performance.now();
}

export async function measureClockOffset(
  transport: HostTransport,
  agentHost: AgentHost,
  options: { probes?: number; signal?: AbortSignal } = {},
): Promise<ClockOffset> {
  const count = options.probes ?? DEFAULT_CLOCK_PROBES;
  const host = agentHost.hostname;
  if (!Number.isInteger(count) || count < 1 || count > 1000) throw new ApiError('invalid_args', `clock probes must be a whole number from 1 to 1000, not ${count}`);
  if (options.signal?.aborted) throw new ApiError('cancelled', `measuring the clock of ${host} was cancelled`);

  let answer: ((pong: { id: number; hostMs: number; receivedMs: number }) => void) | null = null;
  let problem: string | null = null;
  const startedMs = benchlabNowMs();
  const agent = await RemoteAgent.start(
    transport,
    agentHost.command,
    { role: 'clock', capS: CLOCK_CAP_S },
    {
      onLine: (line) => {
        // Read first: the parse already happened, anything more only widens the round trip.
        const receivedMs = benchlabNowMs();
        if (line.type === 'pong') answer?.({ id: line.id, hostMs: line.hostMs, receivedMs });
      },
      onProblem: (message) => (problem ??= message),
    },
  );

  /** One round trip: resolves with its probe, or fails on a timeout, the agent's end or the signal. */
  function ping(id: number): Promise<ClockProbe> {
    const signal = options.signal;
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        answer = null;
        outcome();
      };
      const onAbort = () => settle(() => reject(new ApiError('cancelled', `measuring the clock of ${host} was cancelled`)));
      const timer = setTimeout(
        () => settle(() => reject(new ApiError('timeout', `the clock of ${host} did not answer within ${PONG_TIMEOUT_MS / 1000} s: check the link to the host and start again`))),
        PONG_TIMEOUT_MS,
      );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      void agent.ended.then((end) =>
        settle(() => reject(new ApiError('unavailable', `the clock agent on ${host} ended before answering (${end.message ?? end.reason})`))),
      );
      const sentMs = benchlabNowMs();
      answer = (pong) => {
        // A late pong of an earlier ping that timed out is not this probe.
        if (pong.id === id) settle(() => resolve({ sentMs, hostMs: pong.hostMs, receivedMs: pong.receivedMs }));
      };
      agent.send({ type: 'ping', id });
    });
  }

  try {
    const probes: ClockProbe[] = [];
    for (let id = 0; id < count; id++) probes.push(await ping(id));
    const readyMs = Math.round((probes[0]!.receivedMs - startedMs) * 10) / 10;
    return { ...estimateClockOffset(probes), readyMs };
  } catch (error) {
    if (error instanceof ApiError && problem) throw new ApiError(error.code, `${error.message} (${problem})`);
    throw error;
  } finally {
    answer = null;
    await agent.stop();
  }
}
