// The `templates.*` part of the contract: the catalog, deploying a template to a connected host
// (one deployment per host), stopping and cancelling it, installing a missing runtime on the user's
// word, and the `templates.progress` event that carries every change of a deployment's state.

import { z } from 'zod';
import { NoArgs, request } from '../common/contract-kit.ts';
import { HostId } from '../hosts/hosts.ts';
import { DatabaseFacts } from './template-database.ts';
import { PACKAGE_MANAGERS } from './template-hosts.ts';
import { ManifestShape, Port, RUNTIMES } from './templates.ts';

/** Life of a deployment; `failed` keeps the message and log tail until the next deploy. */
export const DEPLOYMENT_STATES = ['stopped', 'checking', 'building', 'uploading', 'starting', 'ready', 'stopping', 'failed'] as const;
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

/** The named steps of a deploy, in order. */
export const DEPLOY_STEPS = [
  { id: 'check', label: 'Check the host and its runtimes' },
  { id: 'build', label: 'Build on this machine' },
  { id: 'upload', label: 'Upload what changed' },
  { id: 'start', label: 'Start under the supervisor' },
  { id: 'ready', label: 'Wait for readiness' },
] as const;

export const KnobValue = z.union([z.number(), z.boolean(), z.string().max(40, 'is too long')]);

export const InstallOffer = z.object({ runtime: z.enum(RUNTIMES), packageManager: z.enum(PACKAGE_MANAGERS), command: z.string() });

export const Deployment = z.object({
  hostId: z.number(),
  hostName: z.string(),
  templateId: z.string(),
  templateName: z.string(),
  variant: z.string(),
  knobs: z.record(z.string(), KnobValue),
  port: z.number(),
  state: z.enum(DEPLOYMENT_STATES),
  /**
   * The step running now (1-based index), or null when idle. `progress`: a build step's downloads
   * so far (Maven's or npm's, as the log's progress line says them), null when it fetched nothing yet.
   */
  step: z.object({ id: z.string(), label: z.string(), index: z.number(), total: z.number(), detail: z.string().nullable(), progress: z.string().nullable() }).nullable(),
  /** Why it failed or stopped, or what it is doing, in words a person can act on. */
  message: z.string().nullable(),
  /** The server's last log lines, kept for a failure. */
  logTail: z.array(z.string()),
  /** Where the server answers, as the client host would reach it. */
  url: z.string().nullable(),
  /** Runtimes the host lacks that its package manager could install (only on the user's word). */
  installOffers: z.array(InstallOffer),
  startedAt: z.string().nullable(),
  /** Milliseconds from the deploy request to the first good readiness answer. */
  readyMs: z.number().nullable(),
  /** The private database the deploy started (database knob on), with its version and settings. */
  database: DatabaseFacts.nullable(),
  /**
   * What the server runs on and with, name → version: the runtime its start command uses (node,
   * java, apache2) and the packages its build bundled (the manifest's `components`), e.g.
   * { node: '24.11.0', express: '5.3.0', pg: '8.23.1' }. Absent until the deploy knows them.
   */
  components: z.record(z.string(), z.string()).optional(),
  updatedAt: z.string(),
});
export type Deployment = z.infer<typeof Deployment>;

export const TemplateCatalog = z.object({
  templates: z.array(ManifestShape),
  /** Folders whose manifest is broken, with what is wrong: shown, never fatal. */
  broken: z.array(z.object({ folder: z.string(), error: z.string() })),
});
export type TemplateCatalog = z.infer<typeof TemplateCatalog>;

/**
 * A server Benchlab runs on a host now, which a deploy there would have to take down: one this
 * Benchlab started (the Templates page, ready or on its way), or one another Benchlab drives (another
 * window, or `benchlab run`: its heartbeat is fresh). A leftover nobody drives is not one: a deploy
 * clears it.
 */
export const ServerOccupant = z.object({
  templateName: z.string(),
  variant: z.string().nullable(),
  port: z.number().nullable(),
  startedBy: z.enum(['this', 'other']),
  state: z.string(),
  heartbeatAgeSeconds: z.number().nullable(),
  /** Benchlab's id for the deployment: what a stop or a replace names to take down another's server. */
  deploymentId: z.string().nullable(),
  /** Who holds it, in words ("benchlab run, pid 4242 on ci-7"); null: not recorded (an older Benchlab). */
  holder: z.string().nullable(),
  /** The sessions loading it now (by name), from any Benchlab sharing this store. */
  runs: z.array(z.string()),
  /**
   * A plan holds the host, in words (`plan "Overnight" of the benchlab CLI (pid 4242)`): a deploy is
   * refused until it ends, so there is nothing to ask. Null: no plan holds it.
   */
  heldBy: z.string().nullable(),
});
export type ServerOccupant = z.infer<typeof ServerOccupant>;

export const TemplateId = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a template id');

export const templateRequests = {
  'templates.list': request(NoArgs, TemplateCatalog),
  'templates.deployments': request(NoArgs, z.array(Deployment)),
  /** Resolves once the server answers its readiness check; rejects with the reason and log tail. */
  'templates.deploy': request(
    z
      .object({
        hostId: HostId,
        templateId: TemplateId,
        variant: z.string().max(40, 'is too long').optional(),
        knobs: z.record(z.string().max(40, 'is too long'), KnobValue).optional(),
        port: Port.optional(),
        /**
         * The deployment (ServerOccupant.deploymentId) the user agreed to take down for this one. A
         * server running on the host is never replaced without it: the deploy is refused, naming it.
         */
        replace: z.string().max(100).optional(),
      })
      .strict(),
    Deployment,
  ),
  /** What server Benchlab runs on the host now (this one's, or another Benchlab's), if any. */
  'templates.occupant': request(z.object({ hostId: HostId }).strict(), ServerOccupant.nullable()),
  /**
   * Stops what Benchlab runs on the host (graceful, then kill): this Benchlab's server, or one an
   * earlier session left. A server another live Benchlab holds (heartbeat fresh) is stopped only when
   * `deploymentId` names it (the user confirmed stopping that one); otherwise the stop is refused.
   */
  'templates.stop': request(z.object({ hostId: HostId, deploymentId: z.string().max(100).optional() }).strict(), Deployment),
  'templates.cancel': request(z.object({ hostId: HostId }).strict(), z.object({ cancelled: z.boolean() })),
  /** Runs the host package manager's install command for a runtime (as root; sudo password from connect). */
  'templates.install': request(z.object({ hostId: HostId, runtime: z.enum(RUNTIMES) }).strict(), z.object({ command: z.string(), output: z.string() })),
} as const;

export const templateEvents = {
  'templates.progress': Deployment,
} as const;
