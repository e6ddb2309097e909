// One step's CPU profile of the server process: found by the target's port on the server host,
// profiled with its runtime's tool for as long as the step's load runs, and recorded with the step's
// run (captured, missing with the one line saying why, or off). Never fails the run: whatever goes
// wrong becomes the profile's missing line and a warning in the log.

import { chooseProfiler, foldCaptureOutput, parseDiscovery, type ProfilerChoice } from '../../../app/profiles/profile-capture.ts';
import { foldedCounts, type ProfileTool } from '../../../app/profiles/profiles.ts';
import { profileHotspot } from '../../../app/profiles/profile-hotspot.ts';
import type { BottleneckProfile } from '../../../app/runs/bottleneck.ts';
import { messageOf } from '../../../app/common/errors.ts';
import type { HostProcess, HostTransport } from '../hosts/host-transport.ts';
import type { Logger } from '../logger.ts';
import { discoveryCommand, jfrCaptureCommand, PERF_HZ, perfCaptureCommand, v8CaptureCommand } from './profile-commands.ts';
import type { ProfileOutcome } from './profiles-repository.ts';

/**
 * V8's sampling interval: 20 ms, as JFR's. Most of a sample's cost is on V8's own profiler thread,
 * beside the server's: two Node servers side by side on one core (bench/profile-cost-side-by-side.ts),
 * one profiled, spent 3.1 % more CPU per answer of fib(25) at 5 ms, 2.2 % at 10 ms and 0.9 % at
 * 20 ms. At V8's default 1 ms the interrupts cost a Node server 9 % of its requests/s on a 2-core
 * host (12,071 against 13,259 /hello a second). 50 samples a second still name a step's hot frames.
 */
export const V8_INTERVAL_US = 20_000;
/** JFR samples Java threads every 20 ms (its own default period), from a settings file that records nothing else. */
const JFR_INTERVAL_US = 20_000;
/** How long a started capture may take to say it runs, and to hand its stacks over at the end. */
const START_WAIT_MS = 20_000;
const FINISH_WAIT_MS = 120_000;

export interface StepProfileRequest {
  runId: number;
  /** The profile's switch: false records the run's profile as off. */
  wanted: boolean;
  /** The server host, when the run names one (without it there is no process to profile). */
  server: { transport: HostTransport; name: string } | null;
  port: number;
  /** What the run is called in the log. */
  label: string;
}

/** A step's capture under way: `finish` ends it, records the outcome and returns the profile as the step's verdict reads it (null: none captured). */
export interface StepProfile {
  finish(): Promise<BottleneckProfile | null>;
}

export interface StepProfilerOptions {
  record: (runId: number, outcome: ProfileOutcome) => void;
  log: Logger;
  /** The perf command on server hosts, asked at each step (BENCHLAB_PERF: a perf outside PATH). */
  perfCommand?: () => string;
}

export class StepProfiler {
  readonly #options: StepProfilerOptions;
  constructor(options: StepProfilerOptions) {
    this.#options = options;
  }

  async begin(request: StepProfileRequest): Promise<StepProfile> {
    const none = { finish: async () => null };
    if (!request.wanted) {
      this.#record(request, { status: 'off', reason: 'profiling was switched off for this run', tool: null, runtime: null });
      return none;
    }
    if (!request.server) {
      this.#record(request, { status: 'missing', reason: 'no server host was named for the run: name it to profile the server', tool: null, runtime: null });
      return none;
    }
    const { transport, name } = request.server;
    let choice: ProfilerChoice;
    let pids: number[];
    let exe: string | null;
    let paths: { jcmd: string | null; jfr: string | null; perf: string | null };
    try {
      const found = await transport.exec(discoveryCommand(request.port, this.#options.perfCommand?.() ?? 'perf'), { timeoutMs: 15_000 });
      const discovery = parseDiscovery(found.stdout);
      ({ pids, exe } = discovery);
      paths = discovery;
      choice = chooseProfiler(discovery, name, request.port);
    } catch (error) {
      this.#missing(request, `could not look for the server's process on ${name}: ${messageOf(error)}`, null);
      return none;
    }
    // "This machine" serving from Benchlab's own process (a test's server): never signal or attach to ourselves.
    if (transport.kind === 'local' && pids.includes(process.pid)) {
      choice = { missing: `the server on port ${request.port} is Benchlab's own process: it is not profiled`, tool: null, runtime: choice.runtime };
    }
    if ('missing' in choice) {
      this.#record(request, { status: 'missing', reason: choice.missing, tool: choice.tool, runtime: choice.runtime });
      this.#options.log.warn('profiles', `${request.label}: no profile: ${choice.missing}`);
      return none;
    }
    const pid = pids[0]!;
    const command =
      choice.tool === 'v8'
        ? v8CaptureCommand(pid, exe!, request.port, V8_INTERVAL_US)
        : choice.tool === 'jfr'
          ? jfrCaptureCommand(pid, paths.jcmd!, paths.jfr!, request.runId, JFR_INTERVAL_US / 1000)
          : perfCaptureCommand(pids, paths.perf!);
    const { tool, runtime } = choice;
    let stdout = '';
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    let capture: HostProcess;
    try {
      capture = await transport.start(command, {
        onStdout: (chunk) => {
          stdout += chunk;
          if (stdout.includes('@started') || stdout.includes('@failed')) started();
        },
      });
    } catch (error) {
      this.#missing(request, `${tool} did not start on ${name}: ${messageOf(error)}`, choice);
      return none;
    }
    const startedAt = Date.now();
    const ended = capture.exited.then(() => started());
    await Promise.race([running, sleep(START_WAIT_MS)]);
    void ended;
    if (!stdout.includes('@started')) {
      capture.kill();
      const failed = foldCaptureOutput(stdout);
      this.#missing(request, 'failed' in failed && stdout.includes('@failed') ? `${tool} on ${name}: ${failed.failed}` : `${tool} did not start on ${name} in time`, choice);
      return none;
    }
    return {
      finish: async () => {
        const durationMs = Date.now() - startedAt;
        capture.end();
        const exited = await Promise.race([capture.exited.then(() => true), sleep(FINISH_WAIT_MS).then(() => false)]);
        if (!exited) capture.kill();
        const result = foldCaptureOutput(stdout);
        if ('failed' in result) {
          this.#missing(request, `${tool} on ${name}: ${result.failed}`, choice);
          return null;
        }
        const { samples, stacks } = foldedCounts(result.folded);
        if (samples === 0) {
          this.#missing(request, `${tool} on ${name} caught no samples of pid ${pid} (idle, or it ended)`, choice);
          return null;
        }
        this.#record(request, {
          status: 'captured',
          folded: result.folded,
          facts: { tool, runtime, samples, stacks, intervalUs: intervalOf(tool), durationMs, pid },
        });
        return profileHotspot(result.folded, tool);
      },
    };
  }

  #missing(request: StepProfileRequest, reason: string, choice: { tool: ProfileTool; runtime: ProfilerChoice['runtime'] } | null): void {
    this.#record(request, { status: 'missing', reason, tool: choice?.tool ?? null, runtime: choice?.runtime ?? null });
    this.#options.log.warn('profiles', `${request.label}: no profile: ${reason}`);
  }

  #record(request: StepProfileRequest, outcome: ProfileOutcome): void {
    try {
      this.#options.record(request.runId, outcome);
    } catch (error) {
      this.#options.log.warn('profiles', `${request.label}: the profile could not be stored: ${messageOf(error)}`);
    }
  }
}

function intervalOf(tool: ProfileTool): number | null {
  if (tool === 'v8') return V8_INTERVAL_US;
  if (tool === 'jfr') return JFR_INTERVAL_US;
  if (tool === 'perf') return Math.round(1_000_000 / PERF_HZ);
  return null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
