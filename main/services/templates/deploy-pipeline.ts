// One deploy from its first step to ready, or to its end said in words: the named steps of
// deploy-steps.ts run in order; a failure or cancel stops what was started on the host and leaves
// the card failed (or stopped) with the step it happened in, the reason and the server's last lines.

import { ApiError } from '../../../app/common/errors.ts';
import type { Deployment } from '../../../app/templates/templates-contract.ts';
import { tailText } from './log-stream.ts';
import { stopRun } from './remote-server.ts';
import { awaitReadiness, buildLocally, checkHost, startServer, uploadFiles, type DeployRun } from './deploy-steps.ts';
import { unfollow } from './server-watch.ts';

export async function runDeploy(deploy: DeployRun): Promise<Deployment> {
  const startedAt = Date.now();
  const { active, host } = deploy;
  const { deployment } = active;
  try {
    deploy.book.log(`${host.name}: deploying ${active.manifest.name} (${deployment.variant}) on port ${deployment.port}`);
    const checked = await checkHost(deploy);
    const built = await buildLocally(deploy, checked);
    const uploaded = await uploadFiles(deploy, checked, built);
    await startServer(deploy, checked, uploaded);
    await awaitReadiness(deploy, checked, uploaded, startedAt);
    return active.deployment;
  } catch (error) {
    throw await failDeploy(deploy, error);
  } finally {
    active.controller = null;
    await deploy.hold?.release();
  }
}

async function failDeploy(deploy: DeployRun, error: unknown): Promise<ApiError> {
  const { book, active, host, transport, startedServer } = deploy;
  unfollow(active);
  const cancelled = active.controller?.signal.aborted === true || (error instanceof ApiError && error.code === 'cancelled');
  let tail = active.logStream?.tail() ?? [];
  let cleaned = true;
  if (startedServer && active.run) {
    try {
      const stopped = await stopRun(transport, active.run, active.manifest.stop.signal, active.manifest.stop.graceSeconds, active.manifest.logs);
      if (stopped.logTail.length > 0) tail = stopped.logTail;
    } catch {
      cleaned = false;
    }
  }
  const step = active.deployment.step?.label.toLowerCase() ?? 'deploy';
  if (cancelled) {
    const message = `Cancelled during "${step}"; ${startedServer ? (cleaned ? 'the server was stopped and the host cleaned' : 'the host could not be cleaned now: it will be on the next connect') : 'nothing was started on the host'}.`;
    book.update(active, { state: 'stopped', step: null, message, logTail: tail });
    book.log(`${host.name}: ${message}`);
    return new ApiError('cancelled', message);
  }
  const said = error instanceof Error ? error.message : String(error);
  const reason = /[.!?]$/.test(said) ? said : `${said}.`;
  const after = startedServer ? (cleaned ? ' The server was stopped and the host cleaned.' : ' The host could not be cleaned now: it will be on the next connect.') : '';
  const message = `Deploying ${active.manifest.name} to ${host.name} failed at "${step}": ${reason}${after}`;
  book.update(active, { state: 'failed', step: null, message, logTail: startedServer ? tail : [] });
  book.options.log.error('templates', `${message}${startedServer ? tailText(tail) : ''}`);
  const code = error instanceof ApiError ? error.code : 'internal';
  return new ApiError(code, `${message}${startedServer ? tailText(tail) : ''}`, startedServer ? { logTail: tail.join('\n') } : undefined);
}
