// A runtime the host lacks, installed with its package manager as root, on the user's word: the
// command the failed deploy offered (it knows the version it needs: Java 21 for virtual threads),
// else the package manager's own; its output streamed to the log, its last lines kept.

import { ApiError } from '../../../app/common/errors.ts';
import { installCommand, type PackageManager } from '../../../app/templates/template-hosts.ts';
import type { Deployment } from '../../../app/templates/templates-contract.ts';
import type { RuntimeName } from '../../../app/templates/templates.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { runPrivileged } from '../hosts/privileged.ts';
import { ServerLogStream, tailText } from './log-stream.ts';

const INSTALL_TIMEOUT_MS = 15 * 60_000;

export async function installRuntime(
  transport: HostTransport,
  args: { hostName: string; runtime: RuntimeName; packageManager: PackageManager | null; offers: readonly Deployment['installOffers'][number][]; sudoPassword: string | undefined; log: (message: string) => void },
): Promise<{ command: string; output: string }> {
  const { hostName, runtime, packageManager } = args;
  if (!packageManager) throw new ApiError('unavailable', `${hostName} has no package manager Benchlab knows (apt-get, dnf, yum, apk, zypper, pacman): install ${runtime} by hand`);
  const offered = args.offers.find((offer) => offer.runtime === runtime && offer.packageManager === packageManager);
  const command = offered?.command ?? installCommand(runtime, packageManager);
  args.log(`${hostName}: installing ${runtime}: ${command}`);
  const stream = new ServerLogStream((line) => args.log(`${hostName} install: ${line}`));
  const result = await runPrivileged(transport, command, {
    sudoPassword: args.sudoPassword,
    timeoutMs: INSTALL_TIMEOUT_MS,
    onStdout: (chunk) => stream.push(chunk),
    onStderr: (chunk) => stream.push(chunk),
  });
  stream.flush();
  const output = stream.tail().join('\n');
  if (result.code !== 0) throw new ApiError('unavailable', `${command} failed on ${hostName} (exit code ${result.code})${tailText(stream.tail())}`);
  args.log(`${hostName}: installed ${runtime}`);
  return { command, output };
}
