// The clock role: answers each `ping` with a `pong` carrying this host's clock as read when the
// ping arrived (agent-io.ts reads it before parsing), so Benchlab can estimate the host's clock
// offset (app/runs/clock-offset.ts). Holds no resources; ends on stop, a lost heartbeat, a closed
// stdin, or its cap.

import type { ClockConfig } from '../app/runs/agent-protocol.ts';
import type { AgentIo } from './agent-io.ts';
import type { LoadOutcome } from './load-coordinator.ts';

export function answerClockPings(config: ClockConfig, io: AgentIo): Promise<LoadOutcome> {
  io.onPing((id, arrivedMs) => io.send({ type: 'pong', id, hostMs: arrivedMs }));
  return new Promise((resolve) => {
    const cap = setTimeout(() => resolve({ reason: 'cap', message: `the clock role reached its ${config.capS} s cap` }), config.capS * 1000);
    io.onStop((reason) => {
      clearTimeout(cap);
      resolve({ reason });
    });
  });
}
