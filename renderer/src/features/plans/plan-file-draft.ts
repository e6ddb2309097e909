// The wizard's draft as a plan file (Save plan file…) and a plan file as the draft (Open plan
// file…), both pure. Hosts (several load clients as hosts.clients, with their weights) go out by
// their stored name and come back by it (or by user@address:port when that matches a stored host);
// a study named by id fills what the file leaves out, as it does
// for `benchlab run`. What the wizard cannot hold as written is said in a note, never dropped silently.

import { DEFAULT_ENGINE_CHOICE } from '../../../../app/runs/engine-choice.ts';
import { capacityBlockOf, capacityStepsOf, checkPlanFile, STUDY_TARGET_PLACEHOLDER, type PlanFile, type PlanFileParse } from '../../../../app/plans/plan-file.ts';
import type { Study } from '../../../../app/plans/studies.ts';
import type { Host } from '../../../../app/hosts/hosts.ts';
import { parseTags } from '../../../../app/sessions/session-library.ts';
import { draftOfProfile, profileOf } from '../runs/profile-draft.ts';
import { weightOf } from '../runs/client-picks.ts';
import { wizardClients, type WizardDraft, type WizardTarget } from './wizard-draft.ts';
import { draftsOfRequests, namedRequestsOf } from './request-drafts.ts';

type Role = 'client' | 'server';
type StoredHost = Pick<Host, 'id' | 'name' | 'user' | 'address' | 'port'>;

/** The draft as a plan file, checked as one: every problem (by field) when it is not one yet. */
export function planFileOfDraft(draft: WizardDraft, hostName: (id: number) => string | null): PlanFileParse {
  const host = (id: number | null) => (id === null ? null : hostName(id));
  const hosts = { client: host(draft.clientHostId), server: host(draft.serverHostId) };
  // Several clients go out as hosts.clients, each with the weight typed (a client left unchosen is left out).
  const clients = wizardClients(draft).flatMap((client) => {
    const name = host(client.hostId);
    const weight = weightOf(client);
    return name === null ? [] : [typeof weight === 'number' ? { host: name, weight } : name];
  });
  const roles = {
    ...(draft.moreClients.length > 0 && clients.length > 0 ? { clients } : hosts.client ? { client: hosts.client } : {}),
    ...(hosts.server ? { server: hosts.server } : {}),
  };
  // Text that is not a port still goes in, so the check names it.
  const port = draft.port.trim() === '' ? undefined : Number(draft.port.trim());
  const { target: _placeholder, ...single } = profileOf({ ...draft.profile, target: STUDY_TARGET_PLACEHOLDER });
  // Named requests go out in the request's place.
  const { request: _request, ...rest } = single;
  const profile = draft.requests.length > 0 ? { requests: namedRequestsOf(draft.requests, single), ...rest } : single;
  return checkPlanFile({
    version: 1,
    name: draft.name,
    tags: parseTags(draft.tags),
    ...(draft.studyId ? { study: draft.studyId } : {}),
    ...(Object.keys(roles).length > 0 ? { hosts: roles } : {}),
    presets: { client: draft.clientPreset, server: draft.serverPreset },
    revertPresets: draft.revertPresets,
    // No templates chosen yet with a study: the study's own fill in when the file is run or opened.
    ...(draft.targets.length > 0 || !draft.studyId
      ? { templates: draft.targets.map((target) => ({ template: target.templateId, variant: target.variant, knobs: target.knobs ?? {}, ...(port === undefined ? {} : { port }) })) }
      : {}),
    profile,
    ...(draft.capacity ? { capacity: capacityBlockOf(draft.capacity) } : {}),
    // Auto is what a file without the field runs: written only when another engine is chosen.
    ...(draft.engine === DEFAULT_ENGINE_CHOICE ? {} : { engine: draft.engine }),
    repeats: Number(draft.repeats.trim()),
    thresholds: draft.thresholds,
  });
}

const USER_AT_HOST = /^([^@\s]+)@(\[[^\]]+\]|[^:\s]+)(?::(\d+))?$/;

/** A plan file's host reference → the stored host it names, by name first, then by user@address[:port]. */
function findHost(reference: string, hosts: readonly StoredHost[]): StoredHost | undefined {
  const byName = hosts.find((host) => host.name === reference);
  if (byName) return byName;
  const match = USER_AT_HOST.exec(reference);
  if (!match) return undefined;
  const address = match[2]!.replace(/^\[(.*)\]$/, '$1');
  const port = match[3] === undefined ? 22 : Number(match[3]);
  return hosts.find((host) => host.user === match[1] && host.address === address && host.port === port);
}

/**
 * The wizard set up from a plan file, back at its first step to check everything; `notes` says what
 * the wizard could not take as written (a host not stored here, an unknown study, per-template ports).
 */
export function draftOfPlanFile(plan: PlanFile, hosts: readonly StoredHost[], studies: readonly Study[], current: WizardDraft): { draft: WizardDraft; notes: string[] } {
  const notes: string[] = [];
  const study = plan.study === undefined ? undefined : studies.find((entry) => entry.id === plan.study);
  // Said only when the study had something to give: a file with its own templates and profile needs none.
  if (plan.study !== undefined && !study && (!plan.templates || !plan.profile)) notes.push(`study: there is no study "${plan.study}" here; its templates, presets and profile could not be filled in`);

  const hostIdOf = (reference: string | undefined, field: string): number | null => {
    if (reference === undefined) return null;
    const found = findHost(reference, hosts);
    if (!found) notes.push(`${field}: no stored host is "${reference}"; add it on the Hosts page (or in step 1), then choose it`);
    return found?.id ?? null;
  };
  const hostId = (role: Role): number | null => hostIdOf(plan.hosts?.[role], `hosts.${role}`);
  const clients = (plan.hosts?.clients ?? []).map((client, index) => ({ hostId: hostIdOf(client.host, `hosts.clients[${index}]`), weight: client.weight === undefined ? '' : String(client.weight) }));
  const preset = (role: Role): string | null => {
    const fromFile = plan.presets?.[role];
    return fromFile === undefined ? (study?.presets[role] ?? null) : fromFile;
  };

  const templates = plan.templates ?? study?.templates.map((entry) => ({ template: entry.templateId, variant: entry.variant, knobs: entry.knobs }));
  const targets: WizardTarget[] = (templates ?? []).map((entry) => ({
    templateId: entry.template,
    variant: entry.variant,
    ...(Object.keys(entry.knobs).length > 0 ? { knobs: entry.knobs } : {}),
  }));
  const ports = [...new Set((plan.templates ?? []).map((entry) => entry.port))];
  const port = ports.find((entry) => entry !== undefined);
  if (ports.length > 1) notes.push(`templates: the wizard gives every template one port; it took ${port} for all of them`);

  const profile = plan.profile ?? study?.profile;
  if (!profile) notes.push('profile: the file names no profile and no study gives one; the profile on step 4 is the one you had');

  return {
    draft: {
      ...current,
      step: 'hosts',
      clientHostId: clients.length > 0 ? clients[0]!.hostId : hostId('client'),
      clientWeight: clients[0]?.weight ?? '',
      moreClients: clients.slice(1),
      serverHostId: hostId('server'),
      clientPreset: preset('client'),
      serverPreset: preset('server'),
      revertPresets: plan.revertPresets,
      targets,
      port: port === undefined ? '' : String(port),
      studyId: plan.study ?? null,
      profile: profile ? draftOfProfile(profile) : current.profile,
      // Capacity steps go with the profile they replace the rates of: the file's own, else the study's.
      capacity: plan.capacity ? capacityStepsOf(plan.capacity) : plan.profile ? null : (study?.capacity ?? null),
      requests: profile ? draftsOfRequests(profile.requests) : current.requests,
      name: plan.name,
      tags: plan.tags.join(', '),
      repeats: String(plan.repeats),
      engine: plan.engine ?? DEFAULT_ENGINE_CHOICE,
      thresholds: plan.thresholds,
    },
    notes,
  };
}
