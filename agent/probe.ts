// Can the client reach the target? One TCP connect from the client host, so an unreachable target
// is refused before any load starts, with the reason in words.

import { connect } from 'node:net';
import type { ProbeConfig } from '../app/runs/agent-protocol.ts';

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens on that port)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'the name does not resolve',
  EAI_AGAIN: 'the name does not resolve (DNS not answering)',
  ECONNRESET: 'connection reset',
};

export function probe(config: ProbeConfig): Promise<{ reachable: boolean; rttMs: number | null; message: string | null }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host: config.target.hostname, port: config.target.port });
    const finish = (result: { reachable: boolean; rttMs: number | null; message: string | null }) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ reachable: false, rttMs: null, message: `no answer within ${Math.round(config.timeoutMs / 100) / 10} s` }),
      config.timeoutMs,
    );
    socket.once('connect', () => finish({ reachable: true, rttMs: performance.now() - started, message: null }));
    socket.once('error', (error: NodeJS.ErrnoException) => finish({ reachable: false, rttMs: null, message: REASONS[error.code ?? ''] ?? error.message }));
  });
}
