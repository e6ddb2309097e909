// The `runs.*` part of the contract: start a load session (pre-flight checks refuse a bad profile
// or an unreachable target with a clear message), stop it, read the live state and its points,
// acknowledge streamed points, and read stored runs. Events: `runs.state` on every change and
// `runs.points`, one acknowledged batch of chart points per second.

import { z } from 'zod';
import { NoArgs, request } from '../common/contract-kit.ts';
import { HostId } from '../hosts/hosts.ts';
import { EngineChoice } from './engine-choice.ts';
import { LoadProfile } from './load-profile.ts';
import { SessionHostFacts } from '../hosts/host-facts.ts';
import { LivePoint, LivePoints, LiveRun, StoredRun } from './runs.ts';
import { SessionId, SessionName } from './session-identity.ts';
import { DatabaseFacts } from '../templates/template-database.ts';
import { KnobValue, TemplateId } from '../templates/templates-contract.ts';
import { RecordedCalibration } from '../runs/calibration-record.ts';

/**
 * Marks a session as run `index` of `of` repeats of one configuration: Compare groups sessions by
 * `group` (comparison.ts configurationKey) rather than guessing from equal profiles.
 */
export const RepeatTag = z
  .object({ group: z.string().min(1).max(120), index: z.number().int().min(1), of: z.number().int().min(1) })
  .strict()
  .refine((tag) => tag.index <= tag.of, 'index must be at most of');
export type RepeatTag = z.infer<typeof RepeatTag>;

/**
 * What the target serves, as the caller knows it (the plan runner deployed it, the Run page shows it
 * ready on the server): the run is labelled with it. Without one the run is labelled `external`.
 */
export const RunDeployment = z
  .object({
    templateId: TemplateId,
    variant: z.string().max(40, 'is too long'),
    knobs: z.record(z.string().max(40, 'is too long'), KnobValue),
    /** The packages the server was built with and their versions (e.g. express 5.3.0, pg 8.23.1): kept in the session's config. */
    components: z.record(z.string().max(100, 'is too long'), z.string().max(100, 'is too long')).optional(),
    /** The private database the deployment started (version, port, settings): kept in the session's config. */
    database: DatabaseFacts.optional(),
  })
  .strict();
export type RunDeployment = z.infer<typeof RunDeployment>;

/** One load client of a run and its share of the load relative to the others. */
export const RunClient = z
  .object({
    hostId: HostId,
    /** Share of the load relative to the other clients; absent: the host's core count (1 when unknown). */
    weight: z.number().gt(0).max(1000).optional(),
  })
  .strict();
export type RunClient = z.infer<typeof RunClient>;

/** The most load clients one run drives. */
export const MAX_RUN_CLIENTS = 16;

export const runRequests = {
  'runs.start': request(
    z
      .object({
        name: SessionName.optional(),
        /** One load client (exactly one of clientHostId and clients is given). */
        clientHostId: HostId.optional(),
        /** Several load clients, the load split over them by weight; index 0 is the client of the fields that name one. */
        clients: z.array(RunClient).min(1).max(MAX_RUN_CLIENTS).optional(),
        /** The server host, sampled once per second; null when the target is elsewhere. */
        serverHostId: HostId.nullable().optional(),
        profile: LoadProfile,
        /** One of several repeats of one configuration (a plan's Repeats), stored in the session's config. */
        repeat: RepeatTag.optional(),
        /** The plan's name for the request (endpoint) the profile sends, stored in the session's config; absent: unnamed. */
        requestName: z.string().trim().min(1).max(40).optional(),
        deployment: RunDeployment.optional(),
        /** The load engine: auto (default: native where it can run, else Node with a notice), native, or node. */
        engine: EngineChoice.optional(),
        /** The capacity the steps' rates were chosen from (a plan's capacity steps), stored in the session's config. */
        calibration: RecordedCalibration.optional(),
      })
      .strict(),
    LiveRun,
  ),
  /** Stops the load within 1 s; the session is kept with what was measured. */
  'runs.stop': request(z.object({ sessionId: SessionId }).strict(), LiveRun),
  /** The session running now (or the last one of this process), with its points so far. */
  'runs.live': request(NoArgs, z.object({ run: LiveRun.nullable(), points: z.array(LivePoint) })),
  'runs.ack': request(z.object({ sessionId: SessionId, seq: z.number().int().min(0) }).strict(), z.object({})),
  'runs.list': request(z.object({ sessionId: SessionId }).strict(), z.array(StoredRun)),
  /** The noise pre-flight: the hosts read now, with what makes results unrepeatable. Nothing is stored. */
  'runs.preflight': request(
    z
      .object({
        clientHostId: HostId,
        /** Every client when there are several (clientHostId first among them); absent: the one client. */
        clientHostIds: z.array(HostId).min(1).max(MAX_RUN_CLIENTS).optional(),
        serverHostId: HostId.nullable().optional(),
        /** The target's port on the server: the limits of the process listening there are read. */
        port: z.number().int().min(1).max(65535).nullable().optional(),
      })
      .strict(),
    SessionHostFacts,
  ),
  /** What a session's hosts were at its start, with the pre-flight findings; null when it recorded none. */
  'runs.hostFacts': request(z.object({ sessionId: SessionId }).strict(), SessionHostFacts.nullable()),
} as const;

export const runEvents = {
  'runs.state': LiveRun,
  'runs.points': LivePoints,
} as const;
