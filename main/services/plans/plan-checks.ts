// A plan's checks of its hosts, outside its stages: before it starts, the names its stages say (every
// host, preset, template and variant it names checked to exist) and its server host held and free
// of any server; before each load, that the server host runs the deployment just made and nothing else.

import { ApiError } from '../../../app/common/errors.ts';
import { planClientIds, type PlanNames, type PlanSpec } from '../../../app/plans/plan.ts';
import type { Deployment, ServerOccupant } from '../../../app/templates/templates-contract.ts';
import { describeHolder, describeLoads, describeServer, howToFreeHost, type FrontDoor } from '../../../app/templates/server-words.ts';
import type { Logger } from '../logger.ts';
import type { PresetCatalog } from '../presets/preset-catalog.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { TemplateService } from '../templates/template-service.ts';
import type { HostHold } from '../templates/server-hold.ts';

export interface PlanChecksOptions {
  log: Logger;
  hosts: Pick<HostsRepository, 'get'>;
  presetCatalog: Pick<PresetCatalog, 'get'>;
  templates: Pick<TemplateService, 'list' | 'occupant' | 'hold'>;
  frontDoor?: FrontDoor;
}

/** The names a plan's stages say, after checking every host, preset, template and variant it names exists. */
export async function planNames(options: PlanChecksOptions, spec: PlanSpec): Promise<PlanNames> {
  const { hosts, presetCatalog, templates } = options;
  const hostNames = new Map([...planClientIds(spec), spec.serverHostId].map((id) => [id, hosts.get(id).name]));
  for (const preset of [spec.presets.client, spec.presets.server]) if (preset) presetCatalog.get(preset.presetId);
  const catalog = await templates.list();
  const deployed = [...spec.targets.map((target, index) => ({ target, field: `targets.${index}` })), ...(spec.capacity ? [{ target: spec.capacity.reference, field: 'capacity.reference' }] : [])];
  for (const { target, field } of deployed) {
    const manifest = catalog.templates.find((candidate) => candidate.id === target.templateId);
    if (!manifest) throw new ApiError('invalid_args', `${field}: there is no template "${target.templateId}"`);
    if (!manifest.variants.some((variant) => variant.id === target.variant)) {
      throw new ApiError('invalid_args', `${field}: ${manifest.name} has no variant "${target.variant}" (${manifest.variants.map((variant) => variant.id).join(', ')})`);
    }
  }
  return {
    host: (id) => hostNames.get(id) ?? `host ${id}`,
    preset: (id) => presetCatalog.get(id).name,
    template: (id, variantId) => {
      const manifest = catalog.templates.find((candidate) => candidate.id === id);
      const variant = manifest?.variants.find((candidate) => candidate.id === variantId);
      return `${manifest?.name ?? id} · ${variant?.name ?? variantId}`;
    },
  };
}

/**
 * Before anything is applied: the server host held for this plan (another plan holding it refuses
 * this one, named), and free of any server (one another Benchlab holds, or this one's Templates
 * page runs, is never taken down by a plan: stop it first).
 */
export async function holdServerHost(options: PlanChecksOptions, spec: PlanSpec, names: PlanNames): Promise<HostHold> {
  const host = names.host(spec.serverHostId);
  const untouched = `plan "${spec.name}" did not start: nothing was applied, deployed or stopped`;
  let hold: HostHold;
  try {
    hold = await options.templates.hold(spec.serverHostId, `plan "${spec.name}"`);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'conflict') throw new ApiError('conflict', `${error.message}: ${untouched}`);
    // Not reachable (not connected, say): nothing can be done there either; its stages say what fails.
    options.log.warn('plans', `${spec.name}: ${host} could not be held for the plan (${error instanceof Error ? error.message : String(error)})`);
    return { release: async () => undefined };
  }
  try {
    const occupant = await options.templates.occupant(spec.serverHostId);
    if (occupant) {
      const who = occupant.startedBy === 'this' ? "started from this Benchlab's Templates page" : describeHolder(occupant.holder, occupant.heartbeatAgeSeconds);
      throw new ApiError('conflict', `${host} runs ${describeServer(occupant)}, ${who}${describeLoads(occupant.runs)}: ${untouched}. ${howToFreeHost(options.frontDoor ?? 'app', host, occupant)}`);
    }
    return hold;
  } catch (error) {
    await hold.release();
    throw error;
  }
}

/**
 * Right before a run starts: the server host must run the deployment just made and nothing else
 * (the same check the wizard's Templates step makes). Another Benchlab's server, or another
 * deployment that replaced ours, fails the run and is left alone (`leave`); ours gone since its
 * deploy fails it too, and the stop stage cleans up.
 */
export async function otherServer(templates: Pick<TemplateService, 'occupant'>, deployment: Deployment): Promise<{ message: string; leave: boolean } | null> {
  const host = deployment.hostName;
  let occupant: ServerOccupant | null;
  try {
    occupant = await templates.occupant(deployment.hostId);
  } catch (error) {
    return { message: `could not check that ${host} runs only this server (${error instanceof Error ? error.message : String(error)}): check the host's connection`, leave: false };
  }
  if (occupant === null) return { message: `${deployment.templateName} is no longer running on ${host}: see the Templates page for its log`, leave: false };
  const ours = occupant.startedBy === 'this' && occupant.templateName === deployment.templateName && occupant.variant === deployment.variant && occupant.port === deployment.port;
  if (ours) return null;
  const what = `${occupant.templateName}${occupant.variant ? ` (${occupant.variant})` : ''}${occupant.port ? ` on port ${occupant.port}` : ''}`;
  const whose = occupant.startedBy === 'other' ? 'driven by another Benchlab' : 'deployed from this Benchlab since';
  return { message: `${host} now runs ${what}, ${whose}: the run did not start; stop that server or choose another server host`, leave: true };
}
