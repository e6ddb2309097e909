// `benchlab deploy HOST TEMPLATE[:VARIANT]` and `benchlab stop HOST`: the Templates page headless.
// A deployed server lives while its Benchlab beats its heartbeat (the host's supervisor stops it
// otherwise), so deploy stays in the foreground like a server does: progress on stderr, the URL
// on stdout once ready, and Ctrl-C cancels a deploy under way or stops the served one cleanly.

import type { Deployment } from '../../../app/templates/templates-contract.ts';
import type { Knob, Manifest } from '../../../app/templates/templates.ts';
import type { Host } from '../../../app/hosts/hosts.ts';
import type { Services } from '../../services/services.ts';
import { EXIT, intOption, listOption, UsageError, writeJson, type Command, type CommandContext } from '../cli-kit.ts';
import { connectedHost } from '../host-refs.ts';

const HOST_KEY_HELP = `  --accept-new-host-keys  pin the key of a host that has none pinned yet; a changed key is always refused`;

export const deployCommand: Command = {
  name: 'deploy',
  summary: 'deploy a server template to a host and serve it until Ctrl-C',
  usage: `usage: benchlab deploy HOST TEMPLATE[:VARIANT] [--knob KEY=VALUE]... [--port N] [--json]

  Builds, uploads and starts the template, prints its URL on stdout once it answers, and keeps
  it running until Ctrl-C or SIGTERM, which stop it and leave the host clean. Ctrl-C during the
  deploy cancels it (exit 130). Progress goes to stderr.

  --knob KEY=VALUE   a knob of the template (repeatable), e.g. --knob workers=4
  --port N           the port it listens on (default: the template's)
${HOST_KEY_HELP}
  --json             print the ready deployment as JSON instead of its URL

  HOST is a stored host name, local, USER@HOST[:PORT] or a ~/.ssh/config alias.`,
  example: `benchlab deploy lab-server node:async --knob workers=2 --port 8080`,
  options: {
    knob: { type: 'string', multiple: true },
    port: { type: 'string' },
    json: { type: 'boolean' },
    'accept-new-host-keys': { type: 'boolean' },
  },
  async run(ctx) {
    const [hostRef, templateRef, ...extra] = ctx.positionals;
    if (!hostRef || !templateRef) throw new UsageError('deploy needs HOST and TEMPLATE[:VARIANT]');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const [templateId, variant] = splitTemplateRef(templateRef);
    const port = intOption(ctx, 'port', 1, 65535);
    const services = ctx.services();
    const manifest = await findTemplate(services, templateId);
    const knobs = parseKnobs(manifest, listOption(ctx, 'knob'));
    const host = await connectedHost(ctx, hostRef);
    return serve(ctx, host, () => services.templates.deploy(host.id, templateId, { variant, knobs, port }));
  },
};

export const stopCommand: Command = {
  name: 'stop',
  summary: 'stop the server Benchlab runs on a host',
  usage: `usage: benchlab stop HOST [TEMPLATE] [--deployment ID]

  Stops the server Benchlab runs on HOST (gracefully, then killed after the template's grace
  period), including one an earlier Benchlab left there. A server another live Benchlab holds (its
  heartbeat is fresh) is stopped only with --deployment naming it (the refusal says its id). With
  TEMPLATE, that template must exist (a check against typos; a host runs one deployment at a time).

  --deployment ID    stop this deployment even though another Benchlab holds it
${HOST_KEY_HELP}`,
  example: `benchlab stop lab-server node`,
  options: { deployment: { type: 'string' }, 'accept-new-host-keys': { type: 'boolean' } },
  async run(ctx) {
    const [hostRef, templateRef, ...extra] = ctx.positionals;
    if (!hostRef) throw new UsageError('stop needs HOST');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const services = ctx.services();
    if (templateRef) await findTemplate(services, splitTemplateRef(templateRef)[0]);
    const host = await connectedHost(ctx, hostRef);
    const deployment = ctx.values.deployment;
    const stopped = await services.templates.stop(host.id, { deploymentId: typeof deployment === 'string' ? deployment : undefined });
    ctx.stderr.write(`${host.name}: ${stopped.message ?? 'stopped'}\n`);
    return EXIT.ok;
  },
};

function splitTemplateRef(ref: string): [string, string | undefined] {
  const colon = ref.indexOf(':');
  if (colon < 0) return [ref, undefined];
  const variant = ref.slice(colon + 1);
  if (!variant) throw new UsageError(`"${ref}": write TEMPLATE or TEMPLATE:VARIANT`);
  return [ref.slice(0, colon), variant];
}

async function findTemplate(services: Services, templateId: string): Promise<Manifest> {
  const catalog = await services.templates.list();
  const manifest = catalog.templates.find((template) => template.id === templateId);
  if (!manifest) throw new UsageError(`there is no template "${templateId}" (templates: ${catalog.templates.map((template) => template.id).join(', ')})`);
  return manifest as Manifest;
}

/** KEY=VALUE as the knob's own type: integers and booleans from their text, choices as written. */
function parseKnobs(manifest: Manifest, texts: string[]): Record<string, number | boolean | string> {
  const knobs: Record<string, number | boolean | string> = {};
  for (const text of texts) {
    const equals = text.indexOf('=');
    if (equals <= 0) throw new UsageError(`--knob "${text}": write KEY=VALUE`);
    const key = text.slice(0, equals);
    const value = text.slice(equals + 1);
    const knob = manifest.knobs.find((candidate: Knob) => candidate.id === key);
    if (!knob) throw new UsageError(`unknown knob "${key}" (${manifest.name} has ${manifest.knobs.map((candidate: Knob) => candidate.id).join(', ') || 'none'})`);
    if (knob.type === 'integer') {
      if (!/^-?\d+$/.test(value)) throw new UsageError(`--knob ${key}: must be a whole number, got "${value}"`);
      knobs[key] = Number(value);
    } else if (knob.type === 'boolean') {
      if (value !== 'true' && value !== 'false') throw new UsageError(`--knob ${key}: must be true or false, got "${value}"`);
      knobs[key] = value === 'true';
    } else knobs[key] = value;
  }
  return knobs;
}

/**
 * Runs the deploy with its progress on stderr, then serves until a signal or the server's own end.
 * First Ctrl-C: cancel the deploy, or stop the server; a second one exits at once.
 */
async function serve(ctx: CommandContext, host: Host, deploy: () => Promise<Deployment>): Promise<number> {
  const services = ctx.services();
  let lastStep: string | null = null;
  const unsubscribeProgress = services.bus.subscribe('templates.progress', (deployment) => {
    if (deployment.hostId !== host.id || !deployment.step) return;
    const label = `[${deployment.step.index}/${deployment.step.total}] ${deployment.step.label}`;
    if (label !== lastStep) ctx.stderr.write(`${host.name}: ${label}\n`);
    lastStep = label;
  });
  const unsubscribeLog = services.bus.subscribe('log', (line) => {
    if (line.source === 'templates') ctx.stderr.write(`${line.level === 'info' ? '' : `${line.level}: `}${line.message}\n`);
  });

  let interrupted = false;
  let onInterrupt: () => void = () => undefined;
  const handleSignal = () => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    ctx.stderr.write('stopping (Ctrl-C again to quit at once)\n');
    onInterrupt();
  };
  process.on('SIGINT', handleSignal);
  process.on('SIGTERM', handleSignal);
  try {
    onInterrupt = () => services.templates.cancel(host.id);
    let ready: Deployment;
    try {
      ready = await deploy();
    } catch (error) {
      if (interrupted) return EXIT.interrupted;
      throw error;
    }
    if (interrupted) {
      await services.templates.stop(host.id);
      return EXIT.interrupted;
    }
    if (ctx.values.json) writeJson(ctx.stdout, ready);
    else ctx.stdout.write(`${ready.url}\n`);
    ctx.stderr.write(`${host.name}: ${ready.templateName} (${ready.variant}) is ready; Ctrl-C stops it\n`);

    // Serving: until a signal, or the server's end on its own (it crashed, or another Benchlab stopped it).
    const ended = await new Promise<'signal' | Deployment>((resolve) => {
      const keepAlive = setInterval(() => undefined, 1 << 30);
      const unsubscribe = services.bus.subscribe('templates.progress', (deployment) => {
        if (deployment.hostId !== host.id || (deployment.state !== 'failed' && deployment.state !== 'stopped')) return;
        finish(deployment);
      });
      const finish = (how: 'signal' | Deployment) => {
        clearInterval(keepAlive);
        unsubscribe();
        resolve(how);
      };
      onInterrupt = () => finish('signal');
    });
    if (ended !== 'signal') {
      ctx.stderr.write(`${host.name}: the server ended: ${ended.message ?? ended.state}\n`);
      return EXIT.failed;
    }
    // The service logs how it stopped, and that line is already on stderr.
    await services.templates.stop(host.id);
    return EXIT.ok;
  } finally {
    process.off('SIGINT', handleSignal);
    process.off('SIGTERM', handleSignal);
    unsubscribeProgress();
    unsubscribeLog();
  }
}
