// How soon the load agent stops (loopback, the agent from source as the tests run it): after
// Benchlab's stop, after its stdin closes (Benchlab gone), and after it hears nothing for the
// heartbeat timeout. The tests assert that it stops, in its own seconds; these are the milliseconds.

import { HEARTBEAT_TIMEOUT_MS, type AgentLine, type LoadAgentConfig } from '../app/runs/agent-protocol.ts';
import { runAgent, startTestServer, type TestServer } from '../agent/agent-harness.ts';

export interface AgentStopFigures {
  stopToLastRequestMs: number;
  stopToExitMs: number;
  stdinClosedToExitMs: number;
  /** From its hello (the last thing it heard) to its exit; the timeout is HEARTBEAT_TIMEOUT_MS. */
  silenceToExitMs: number;
  heartbeatTimeoutMs: number;
}

function config(server: TestServer): LoadAgentConfig {
  return {
    role: 'load',
    target: { protocol: 'http', hostname: '127.0.0.1', port: server.port },
    request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 5000 },
    load: { model: 'closed', connections: 4, pipelining: 1, durationS: 30 },
    warmupS: 0,
    capS: 40,
  };
}

const firstSample = (line: AgentLine) => line.type === 'sample' && line.second === 0;

export async function benchAgentStop(): Promise<AgentStopFigures> {
  const server = await startTestServer();
  try {
    const stopped = await runAgent(config(server), { stopWhen: firstSample });
    const stopSentAt = stopped.stopSentAt!;
    const stopToLastRequestMs = server.lastRequestAt() - stopSentAt;
    let closedAt = 0;
    const closed = await runAgent(config(server), {
      closeStdinWhen: (line) => {
        if (!firstSample(line)) return false;
        closedAt = Date.now();
        return true;
      },
    });
    const silent = await runAgent(config(server), { heartbeat: false });
    const heardLast = silent.lines.find((line) => line.type === 'hello')!.receivedAt;
    return {
      stopToLastRequestMs,
      stopToExitMs: stopped.exitedAt - stopSentAt,
      stdinClosedToExitMs: closed.exitedAt - closedAt,
      silenceToExitMs: silent.exitedAt - heardLast,
      heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
    };
  } finally {
    await server.close();
  }
}
