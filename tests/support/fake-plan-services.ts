// The plan runner over fake services (no hosts), for the unit tests of what it does in which
// order: every hold (of the server host, and of the preset changes a plan will revert), preset apply and revert, deploy, load and stop is written to `calls`, each
// started run to `started`. A test makes a host's preset or a deploy fail, the server host held by
// another plan or run a server at the start, or its occupant differ from the deployment just made,
// through the choices below. With `serverCapacity`, each run's steps end as a server of that many
// requests/s answers them (what a calibration reads).

import { ApiError } from '../../app/common/errors.ts';
import { PlanSpec, type PlanSpecInput } from '../../app/plans/plan.ts';
import type { KeyVerdict } from '../../app/presets/preset-verify.ts';
import type { LoadProfile } from '../../app/runs/load-profile.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import type { RecordedCalibration } from '../../app/runs/calibration-record.ts';
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
  profile: LoadProfile;
  calibration: RecordedCalibration | undefined;
  /** The plan's name for the request the load sent (named requests only). */
  requestName: string | undefined;
}

export interface FakeChoices {
  /** Hosts whose preset apply fails (with "sysctl refused"). */
  failApplyOn?: number[];
  /** What an apply's verification says, key by key, by host; default: none (nothing to verify). */
  verdictsOn?: Record<number, KeyVerdict[]>;
  /** What templates.occupant answers after a deploy; default: the deployment just made, started by this Benchlab. */
  occupant?: (last: Deployment) => ServerOccupant | null;
  /** What it answers before the plan's first deploy (the plan's start); default: none. */
  occupantAtStart?: ServerOccupant;
  /** Another plan holds the server host: the hold is refused with this message. */
  heldBy?: string;
  /** Deploys of these variants fail (with "port in use"). */
  failDeployOf?: string[];
  /** The requests/s the server answers: a closed run gets it, an open step above it loses 10 % of its requests. */
  serverCapacity?: number;
}

/** A run's steps as a server of `capacity` requests/s ends them. */
function stepsAt(profile: LoadProfile, capacity: number): LiveRun['steps'] {
  const rates = profile.load.model === 'closed' ? [null] : profile.sweep.length > 0 ? profile.sweep : [profile.load.rate ?? 0];
  return rates.map((rate, index) => {
    const scheduled = rate === null ? capacity * 5 : rate * 3;
    const answered = rate === null || rate <= capacity ? scheduled : Math.floor(scheduled * 0.9);
    const books = { scheduled, answered, errors: 0, timeouts: scheduled - answered, notSent: 0, inFlight: 0, balanced: true };
    const summary = { requests: answered, requestsPerSecond: rate === null ? capacity : Math.min(rate, capacity), non2xx: 0, p99Us: rate !== null && rate > capacity ? 900_000 : 2000, books };
    return { index, label: `step ${index + 1}`, status: 'completed', targetRate: rate, summary } as unknown as LiveRun['steps'][number];
  });
}

export const FAKE_PLAN_ID = '0123456789abcdef';

export function fakePlanRunner(choices: FakeChoices = {}): { runner: PlanRunner; calls: string[]; started: StartedRun[]; holds: string[]; presetHolds: string[] } {
  const calls: string[] = [];
  /** The server host's holds taken and released, apart from `calls`. */
  const holds: string[] = [];
  /** Preset changes a plan holds (will revert itself) and lets go of, apart from `calls`. */
  const presetHolds: string[] = [];
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
      apply: async (presetId: string, hostId: number, planId: string, options: { revertedBy?: string } = {}) => {
        calls.push(`apply ${presetId} on host${hostId} (${planId})`);
        if (options.revertedBy) presetHolds.push(`${options.revertedBy} holds host${hostId}`);
        if (choices.failApplyOn?.includes(hostId)) throw new Error('sysctl refused');
        return { outcome: 'applied', verdicts: choices.verdictsOn?.[hostId] ?? [], plan: { presetName: presetId, changes: 1, limits: [] } };
      },
      revert: async (hostId: number) => {
        calls.push(`revert host${hostId}`);
        return { outcome: 'reverted' };
      },
      release: (hostId: number) => void presetHolds.push(`release host${hostId}`),
    } as unknown as PlanRunnerOptions['presets'],
    templates: {
      list: async () => ({
        templates: [{ id: 'node', name: 'Node', variants: [{ id: 'async', name: 'async' }, { id: 'sync', name: 'sync' }] }],
      }),
      hold: async (hostId: number, what: string) => {
        if (choices.heldBy) throw new ApiError('conflict', choices.heldBy);
        holds.push(`hold host${hostId} for ${what}`);
        return { release: async () => void holds.push(`release host${hostId}`) };
      },
      deploy: async (hostId: number, templateId: string, options: { variant: string }) => {
        calls.push(`deploy ${templateId}/${options.variant}`);
        if (choices.failDeployOf?.includes(options.variant)) throw new ApiError('conflict', 'port 8080 is already in use');
        last = { hostId, hostName: `host${hostId}`, url: 'http://127.0.0.1:8080', templateId, templateName: 'Node', variant: options.variant, port: 8080, knobs: { round: calls.length } } as unknown as Deployment;
        return last;
      },
      occupant: async () => {
        const deployed = last;
        if (!deployed) return choices.occupantAtStart ?? null;
        return choices.occupant
          ? choices.occupant(deployed)
          : { templateName: deployed.templateName, variant: deployed.variant, port: deployed.port, startedBy: 'this', state: 'ready', heartbeatAgeSeconds: null, deploymentId: 'd1', holder: null, runs: [], heldBy: null };
      },
      cancel: () => undefined,
      stop: async () => {
        calls.push('stop');
      },
    } as unknown as PlanRunnerOptions['templates'],
    runs: {
      start: async (args: Omit<StartedRun, 'calibration' | 'requestName'> & { calibration?: RecordedCalibration; requestName?: string }) => {
        calls.push('load');
        started.push({ name: args.name, repeat: args.repeat, deployment: args.deployment, clientHostId: args.clientHostId, clients: args.clients, profile: args.profile, calibration: args.calibration, requestName: args.requestName });
        return { sessionId: nextSession++ } as LiveRun;
      },
      stop: async () => undefined,
      finished: async (sessionId: number) => {
        const profile = started[sessionId - 1]?.profile;
        const steps = choices.serverCapacity !== undefined && profile ? stepsAt(profile, choices.serverCapacity) : [];
        return { sessionId, status: 'completed', steps, currentStep: null, endedAt: '2026-11-27T16:40:00.000Z', message: null } as unknown as LiveRun;
      },
    } as unknown as PlanRunnerOptions['runs'],
    store: { load: () => null, save: () => undefined },
  };
  return { runner: new PlanRunner(options), calls, started, holds, presetHolds };
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
