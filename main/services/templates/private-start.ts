// How a private database's start script runs on the host, for PostgreSQL and MongoDB alike: the
// ports it tries, its `progress` lines passed on as they come, a cancel that waits for the script
// to end (so the cleanup after it finds everything in place), and its report read, a failure said
// with the instance's last log lines.

import { randomInt } from 'node:crypto';
import { ApiError } from '../../../app/common/errors.ts';
import { parseStartReport, type StartReport } from '../../../app/templates/template-database.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { untilAborted } from './until-aborted.ts';

const START_TIMEOUT_MS = 180_000;

/** Ten distinct random ports to try in order (the host says which are free). They lie below
 *  Linux's default ephemeral range (32768–60999), where a load run's own connections sit. */
export function candidatePorts(): number[] {
  const ports = new Set<number>();
  while (ports.size < 10) ports.add(randomInt(20_000, 32_768));
  return [...ports];
}

/** Runs the start script; `what` names the instance in a failure ("the private PostgreSQL"). */
export async function runStartScript(transport: HostTransport, script: string, what: string, onProgress: (stage: string) => void, signal?: AbortSignal): Promise<Extract<StartReport, { ok: true }>> {
  let pending = '';
  const work = transport.exec('sh -s', {
    stdin: script,
    timeoutMs: START_TIMEOUT_MS,
    onStdout: (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('progress ')) onProgress(line.slice('progress '.length));
    },
  });
  let output: string;
  try {
    output = (await untilAborted(work, signal)).stdout;
  } catch (error) {
    await work.catch(() => undefined);
    throw error;
  }
  const report = parseStartReport(output);
  if (!report.ok) {
    const log = report.log.length > 0 ? `\nLast lines of its log:\n${report.log.join('\n')}` : '';
    throw new ApiError('unavailable', `${what}: ${report.error}${log}`);
  }
  return report;
}
