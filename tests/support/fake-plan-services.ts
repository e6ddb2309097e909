// The plan runner over fake services (no hosts), for the unit tests of what it does in which
// order: every preset apply and revert, deploy, load and stop is written to `calls`, each started
// run to `started`. A test makes a host's preset fail, or the server host's occupant differ from
// the deployment just made, through `failApplyOn` and `occupant`.

import { PlanSpec, type PlanSpecInput } from '../../app/plans/plan.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import type { Deployment, ServerOccupant } from '../../app/templates/templates-contract.ts';
import { EventBus } from '../../main/services/event-bus.ts';
import type { Logger } from '../../main/services/logger.ts';
import { PlanRunner, type PlanRunnerOptions } from '../../main/services/plans/plan-runner.ts';

export interface StartedRun {
  name: string;
  repeat: { group: string; index: number; of: number } | undefined;
  deployment: { templateId: string; variant: string; knobs: Record<string, unknown> } | undefined;
  clientHostId: number | undefined;
  clients: Array<{ hostId: number; weight?: number }> | undefined;
}

export interface FakeChoices {
  /** Hosts whose preset apply fails (with "sysctl refused"). */
  failApplyOn?: number[];
  /** What templates.occupant answers; default: the deployment just made, started by this Benchlab. */
  occupant?: (last: Deployment) => ServerOccupant | null;
}

export const FAKE_PLAN_ID = '0123456789abcdef';

export function fakePlanRunner(choices: FakeChoices = {}): { runner: PlanRunner; calls: string[]; started: StartedRun[] } {
  const calls: string[] = [];
  const started: StartedRun[] = [];
  let nextSession = 1;
  let last: Deployment | null = null;
  const quiet = { info() {}, warn() {}, error() {} } as unknown as Logger;
  const options: PlanRunnerOptions = {
    bus: new EventBus(),
    log: quiet,
    hosts: { get: (id: number) => ({ id, name: `host${id}`, kind: 'local' }) } as unknown as PlanRunnerOptions['hosts'],
    connections: { connect: async () => undefined } as unknown as PlanRunnerOptions['connections'],
    sessions: { updateNotesAndTags: () => undefined } as unknown as PlanRunnerOptions['sessions'],
    presetCatalog: { get: (id: string) => ({ id, name: id }) } as unknown as PlanRunnerOptions['presetCatalog'],
    presets: {
      apply: async (presetId: string, hostId: number, planId: string) => {
        calls.push(`apply ${presetId} on host${hostId} (${planId})`);
        if (choices.failApplyOn?.includes(hostId)) throw new Error('sysctl refused');
        return { outcome: 'applied', verdicts: [], plan: { changes: 1, limits: [] } };
      },
      revert: async (hostId: number) => {
        calls.push(`revert host${hostId}`);
        return { outcome: 'reverted' };
      },
    } as unknown as PlanRunnerOptions['presets'],
    templates: {
      list: async () => ({
        templates: [{ id: 'node', name: 'Node', variants: [{ id: 'async', name: 'async' }, { id: 'sync', name: 'sync' }] }],
      }),
      deploy: async (hostId: number, templateId: string, options: { variant: string }) => {
        calls.push(`deploy ${templateId}/${options.variant}`);
        last = { hostId, hostName: `host${hostId}`, url: 'http://127.0.0.1:8080', templateId, templateName: 'Node', variant: options.variant, port: 8080, knobs: { round: calls.length } } as unknown as Deployment;
        return last;
      },
      occupant: async () => {
        const deployed = last!;
        return choices.occupant
          ? choices.occupant(deployed)
          : { templateName: deployed.templateName, variant: deployed.variant, port: deployed.port, startedBy: 'this', state: 'ready', heartbeatAgeSeconds: null };
      },
      cancel: () => undefined,
      stop: async () => {
        calls.push('stop');
      },
    } as unknown as PlanRunnerOptions['templates'],
    runs: {
      start: async (args: { name: string; repeat?: StartedRun['repeat']; deployment?: StartedRun['deployment']; clientHostId?: number; clients?: StartedRun['clients'] }) => {
        calls.push('load');
        started.push({ name: args.name, repeat: args.repeat, deployment: args.deployment, clientHostId: args.clientHostId, clients: args.clients });
        return { sessionId: nextSession++ } as LiveRun;
      },
      stop: async () => undefined,
      finished: async (sessionId: number) => ({ sessionId, status: 'completed', steps: [], currentStep: null }) as unknown as LiveRun,
    } as unknown as PlanRunnerOptions['runs'],
    store: { load: () => null, save: () => undefined },
  };
  return { runner: new PlanRunner(options), calls, started };
}

/** A plan of two Node variants from host 1 to host 2, no presets, with what the test changes. */
export function fakePlanSpec(overrides: Partial<PlanSpecInput>): PlanSpec {
  return PlanSpec.parse({
    name: 'sync vs async',
    clientHostId: 1,
    serverHostId: 2,
    presets: { client: null, server: null },
    targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'node', variant: 'sync' }],
    profile: { target: 'http://127.0.0.1:8080', request: { path: '/hello' }, load: { model: 'closed', connections: 4, durationS: 1 } },
    ...overrides,
  });
}
