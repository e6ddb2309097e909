// A preset apply in a process of its own, frozen just before a chosen remote step so a test can
// kill -9 it there: the crash mid-apply that the journal and the restore file exist for.
// Reads its job as JSON on stdin (the password never goes on a command line); prints
// `FROZEN <step>` when it reaches the step, or `APPLIED` if it never does.

import { createServices } from '../../main/services/services.ts';
import type { ExecOptions, HostTransport } from '../../main/services/hosts/host-transport.ts';
import { PresetService } from '../../main/services/presets/preset-service.ts';
import type { ScriptStep } from '../../main/services/presets/host-preset-io.ts';

export interface ApplyChildJob {
  dataDir: string;
  hostId: number;
  presetId: string;
  password: string;
  stopBefore: ScriptStep;
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

const job = JSON.parse(await readStdin()) as ApplyChildJob;
const services = createServices({ dataDir: job.dataDir, transport: 'cli', version: 'test' });
await services.connections.connect(job.hostId, { password: job.password, sudoPassword: job.password });

/** The host's transport, except that the chosen step's script never runs and never returns. */
function freezingBefore(transport: HostTransport): HostTransport {
  const exec = async (command: string, options?: ExecOptions) => {
    if (command.includes(`# benchlab-preset: ${job.stopBefore}\n`)) {
      process.stdout.write(`FROZEN ${job.stopBefore}\n`);
      setInterval(() => {}, 60_000);
      await new Promise(() => {});
    }
    return transport.exec(command, options);
  };
  // A proxy, so whatever else the transport offers keeps working unchanged.
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'exec') return exec;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const presets = new PresetService({
  catalog: services.presetCatalog,
  changes: services.changes,
  hosts: services.hosts,
  connections: {
    transportFor: (hostId) => freezingBefore(services.connections.transportFor(hostId)),
    sudoPasswordFor: (hostId) => services.connections.sudoPasswordFor(hostId),
    openFreshLogin: (hostId) => services.connections.openFreshLogin(hostId),
  },
  bus: services.bus,
  log: services.log,
});
const plan = await presets.plan(job.presetId, job.hostId);
await presets.apply(job.presetId, job.hostId, plan.planId);
process.stdout.write('APPLIED\n');
await services.close();
