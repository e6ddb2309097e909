// A Benchlab back end for lab tests: real services on a fresh data dir, the contract's dispatcher
// (so arguments are validated as the UI's are), and both hosts of a lab instance added with their
// keys pinned and connected; also one with a template deployed on its server, and the native
// engine built for the lab client's architecture; and the suites that hold one such lab from their start to their end.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, type TestContext } from 'node:test';
import { labExec, type LabInstance } from '../lab/lab.ts';
import type { PlanState } from '../../app/plans/plan.ts';
import { nativeEngineArch } from '../../app/runs/engine-choice.ts';
import { engineBinary, type EngineBinary, type EngineBinaryLookup } from '../../main/services/runs/engine-binary.ts';
import { createDispatcher, type Dispatcher } from '../../main/api/dispatch.ts';
import { createHandlers } from '../../main/api/handlers.ts';
import { createServices, type Services } from '../../main/services/services.ts';
import { labTargets } from './lab-hosts.ts';
import { TEST_BUILD_DIR, TEST_NODE_CACHE } from './template-lab.ts';

export interface LabBackend {
  services: Services;
  call: Dispatcher;
  dir: string;
  clientId: number;
  serverId: number;
  targets: Awaited<ReturnType<typeof labTargets>>;
  /** Calls a request and returns its result, or throws `name: code: message`. */
  ok<T>(name: string, args: unknown): Promise<T>;
  /** Closes the services and removes the data dir. */
  close(): Promise<void>;
}

export interface LabBackendOptions {
  /**
   * Use the lab tests' shared template builds and portable Node cache instead of the fresh data
   * dir's own, so a JVM template is built once per machine rather than once per test run.
   */
  sharedCaches?: boolean;
  /** The front door it stands for (default cli): `web` to play the app beside a CLI on one store. */
  transport?: 'web' | 'cli';
}

export async function openLabBackend(instance: LabInstance, dirPrefix: string, options: LabBackendOptions = {}): Promise<LabBackend> {
  const targets = await labTargets(instance);
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  if (options.sharedCaches) {
    mkdirSync(join(dir, 'cache'));
    for (const [shared, name] of [[TEST_BUILD_DIR, 'template-builds'], [TEST_NODE_CACHE, 'portable-node']] as const) {
      mkdirSync(shared, { recursive: true });
      symlinkSync(shared, join(dir, 'cache', name));
    }
  }
  const services = createServices({ dataDir: dir, transport: options.transport ?? 'cli', version: 'test' });
  const call = createDispatcher(createHandlers(services), (error) => console.error(error));
  const ok = async <T>(name: string, args: unknown): Promise<T> => {
    const outcome = await call(name, args);
    if (!outcome.ok) throw new Error(`${name}: ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result as T;
  };
  const add = async (role: 'client' | 'server') => {
    const target = targets[role];
    const host = await ok<{ id: number }>('hosts.add', { name: `lab-${role}`, address: target.address, port: 22, user: 'root', auth: 'key', keyPath: targets.keyPath });
    services.hosts.pinKey(host.id, target.pinnedFingerprint!);
    await ok('hosts.connect', { id: host.id });
    return host.id;
  };
  const clientId = await add('client');
  const serverId = await add('server');
  return {
    services,
    call,
    dir,
    clientId,
    serverId,
    targets,
    ok,
    close: async () => {
      await services.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TemplateDeploy {
  templateId: string;
  variant?: string;
  port: number;
}

/** Deploys a template on the lab's server; its URL without the trailing slash. */
async function deployTemplate(lab: LabBackend, deploy: TemplateDeploy): Promise<string> {
  const deployment = await lab.ok<{ url: string }>('templates.deploy', { hostId: lab.serverId, ...deploy });
  return deployment.url.replace(/\/$/, '');
}

/** A lab back end with a template deployed on its server; `target` is its URL without the trailing slash. */
export async function openDeployedLab(instance: LabInstance, dirPrefix: string, deploy: TemplateDeploy, options: LabBackendOptions = {}): Promise<{ lab: LabBackend; target: string }> {
  const lab = await openLabBackend(instance, dirPrefix, options);
  return { lab, target: await deployTemplate(lab, deploy) };
}

/** One server at a time on the lab's server: stops whatever runs there, then deploys `deploy`; its URL without the trailing slash. */
export async function redeployTemplate(lab: LabBackend, deploy: TemplateDeploy): Promise<string> {
  await lab.call('templates.stop', { hostId: lab.serverId });
  return deployTemplate(lab, deploy);
}

/**
 * A suite that puts one server at a time on its lab instance's server host: the back end opened
 * before its tests (with the shared caches) and closed after them, the server stopped; `deploy`
 * replaces the server. Call it inside the suite's describe; `lab` is the back end once open.
 */
export function oneServerLab(instance: LabInstance, dirPrefix: string, port: number): { readonly lab: LabBackend; deploy(templateId: string, variant: string): Promise<string> } {
  let opened: LabBackend | undefined;
  before(async () => {
    opened = await openLabBackend(instance, dirPrefix, { sharedCaches: true });
  });
  after(() => closeDeployedLab(opened));
  const lab = () => {
    if (!opened) throw new Error(`the ${instance} lab's back end is read before the suite opened it`);
    return opened;
  };
  return {
    get lab() {
      return lab();
    },
    deploy: (templateId, variant) => redeployTemplate(lab(), { templateId, variant, port }),
  };
}

/**
 * A suite that loads the Node template (async) on its lab instance with each load engine: the back
 * end opened and the template deployed before its tests, the native engine for the lab's client
 * looked up, all closed after. `nativeEngine(t)` is that engine's binary, or null once the test is
 * skipped for want of one (failed instead under BENCHLAB_REQUIRE_ENGINE=1). Call it inside the
 * suite's describe; `lab` and `target` are read once it opened.
 */
export function engineLab(instance: LabInstance, dirPrefix: string, port: number): EngineLab {
  const suite = new EngineLab();
  before(async () => {
    // The back end is kept before the engine's lookup, so that a lookup that throws still closes it.
    ({ lab: suite.opened, target: suite.target } = await openDeployedLab(instance, dirPrefix, { templateId: 'node', variant: 'async', port }));
    suite.native = await labClientEngine(instance);
  });
  after(() => closeDeployedLab(suite.opened));
  return suite;
}

class EngineLab {
  opened: LabBackend | undefined;
  target = '';
  native: EngineBinaryLookup = { ok: false, reason: 'not looked up yet' };

  get lab(): LabBackend {
    if (!this.opened) throw new Error('the lab is read before the suite opened it');
    return this.opened;
  }

  nativeEngine(t: TestContext): EngineBinary | null {
    if (this.native.ok) return this.native.binary;
    if (process.env.BENCHLAB_REQUIRE_ENGINE === '1') assert.fail(`the native engine is required here: ${this.native.reason}`);
    t.skip(this.native.reason);
    return null;
  }
}

/** Stops the server's template and closes the back end (nothing when it never opened). */
export async function closeDeployedLab(lab: LabBackend | undefined): Promise<void> {
  if (!lab) return;
  await lab.call('templates.stop', { hostId: lab.serverId });
  await lab.close();
}

/** Starts a plan from the lab's client to its server with no preset on either (`plan` says the rest), and checks that it runs. */
export async function startLabPlan(lab: LabBackend, plan: Record<string, unknown>): Promise<PlanState> {
  const started = await lab.ok<PlanState>('plans.start', { clientHostId: lab.clientId, serverHostId: lab.serverId, presets: { client: null, server: null }, ...plan });
  assert.equal(started.status, 'running');
  return started;
}

/** After a plan's tests: cancels a plan still running, stops the server's template, reverts a preset left on the server, closes the back end. */
export async function closePlanLab(lab: LabBackend | undefined): Promise<void> {
  if (!lab) return;
  await lab.services.plans.cancel().catch(() => undefined);
  await lab.services.templates.stop(lab.serverId).catch(() => undefined);
  await lab.services.presets.revert(lab.serverId).catch(() => undefined);
  await lab.close();
}

/** The native engine's binary for the lab client's architecture, or why there is none. */
export async function labClientEngine(instance: LabInstance): Promise<EngineBinaryLookup> {
  const machine = (await labExec('client', ['uname', '-m'], { instance })).stdout.trim();
  const arch = nativeEngineArch(machine);
  return arch ? engineBinary(arch) : { ok: false, reason: `no native engine for ${machine}` };
}
