// The live run of the session that runs (app/runs/runs.ts's LiveRun), changed only through the named
// transitions below, each of which publishes the whole state on `runs.state` once, from one place.
// The step runner, the faults and the facade say what happened (a step started, a client was lost,
// the store is full, the session ended); this module says what that does to what the dashboard shows.

import type { Bottleneck } from '../../../app/runs/bottleneck.ts';
import { liveRunOf, liveStepOf, type LiveRunFields } from '../../../app/runs/live-run.ts';
import type { ClientVerdict, LiveClient, LiveRun, LiveStep, StepDegraded } from '../../../app/runs/runs.ts';
import type { RunSummary } from '../../../app/runs/run-summary.ts';

/** A step's figures so far: the summary always; the verdicts once measured seconds came. */
export interface StepTally {
  summary: RunSummary | null;
  bottleneck?: Bottleneck | null;
  clientVerdicts?: ClientVerdict[];
}

export type StepEnd = 'completed' | 'stopped' | 'failed';
export type SessionEnd = 'completed' | 'failed' | 'cancelled';

export class LiveRunState {
  readonly #run: LiveRun;
  readonly #publish: (run: LiveRun) => void;

  /** A session starting with its steps pending; nothing is published until `opened`. */
  constructor(fields: Omit<LiveRunFields, 'status' | 'steps' | 'endedAt'> & { steps: ReadonlyArray<{ index: number; label: string; targetRate: number | null }> }, publish: (run: LiveRun) => void) {
    this.#run = liveRunOf({ ...fields, status: 'starting', endedAt: null, steps: fields.steps.map((step) => liveStepOf(step)) });
    this.#publish = publish;
  }

  /** The state as it stands, to read (a copy is handed out by `snapshot`). */
  get run(): Readonly<LiveRun> {
    return this.#run;
  }

  step(index: number): Readonly<LiveStep> {
    return this.#run.steps[index]!;
  }

  /** A copy of the state, safe to hand out of the process. */
  snapshot(): LiveRun {
    return structuredClone(this.#run);
  }

  isOver(): boolean {
    return isOver(this.#run.status);
  }

  /** The session exists and its first state is shown. */
  opened(): void {
    this.#changed();
  }

  /** Which sources of once-a-second lines are silent, and since when (run-link-watch.ts). */
  silence(silentSince: LiveRun['silentSince']): void {
    this.#run.silentSince = silentSince;
    this.#changed();
  }

  /** The pause before step `stepIndex`. */
  pausing(stepIndex: number): void {
    Object.assign(this.#run, { status: 'pausing', currentStep: stepIndex });
    this.#changed();
  }

  /** Step `stepIndex` starts (its run stored as `runId`), each client starting with its share of its load. */
  stepStarted(stepIndex: number, start: { runId: number; atS: number; warmup: boolean; shares: ReadonlyArray<Pick<LiveClient, 'connections' | 'rate'>> }): void {
    Object.assign(this.#run.steps[stepIndex]!, { runId: start.runId, startedAtS: start.atS, status: start.warmup ? 'warmup' : 'running' });
    start.shares.forEach((share, index) => Object.assign(this.#run.clients[index]!, { status: 'starting', problem: null, ...share }));
    Object.assign(this.#run, { status: 'running', currentStep: stepIndex });
    this.#changed();
  }

  /** A client's agent is up and loading. */
  clientRunning(clientIndex: number): void {
    this.#run.clients[clientIndex]!.status = 'running';
    this.#changed();
  }

  /** A client's agent ended as planned (or on Stop). */
  clientDone(clientIndex: number): void {
    this.#run.clients[clientIndex]!.status = 'done';
    this.#changed();
  }

  /** A client failed (its agent said so) or was lost (died, its link cut): when and why, in words. */
  clientFailed(clientIndex: number, status: 'failed' | 'lost', problem: { atS: number; message: string }): void {
    Object.assign(this.#run.clients[clientIndex]!, { status, problem });
    this.#changed();
  }

  /** A second came: the step's figures so far; its first measured second ends the warm-up. */
  tallied(stepIndex: number, phase: 'warmup' | 'measure' | 'drain', tally: StepTally): void {
    const step = this.#run.steps[stepIndex]!;
    if (phase === 'measure' && step.status === 'warmup') step.status = 'running';
    step.summary = tally.summary;
    if (tally.bottleneck !== undefined) step.bottleneck = tally.bottleneck;
    if (tally.clientVerdicts !== undefined) step.clientVerdicts = tally.clientVerdicts;
    this.#changed();
  }

  /** The step lost a client or its server: what its result lacks. */
  stepDegraded(stepIndex: number, degraded: StepDegraded): void {
    this.#run.steps[stepIndex]!.degraded = degraded;
    this.#changed();
  }

  /** The step is over, with its final figures. */
  stepEnded(stepIndex: number, status: StepEnd, result: Required<StepTally>, atS: number): void {
    Object.assign(this.#run.steps[stepIndex]!, { status, summary: result.summary, bottleneck: result.bottleneck, clientVerdicts: result.clientVerdicts, endedAtS: atS });
    this.#changed();
  }

  /** The load is being stopped (Stop, the hard cap, a fault), with why when it is not Stop. */
  stopping(message: string | null): void {
    this.#run.status = 'stopping';
    if (message) this.#run.message = message;
    this.#changed();
  }

  /** The session is over: steps it never reached are stopped; `message` is why it failed, else the one it had. */
  ended(status: SessionEnd, endedAt: Date, failure: string | null): void {
    for (const step of this.#run.steps) if (step.status === 'pending') step.status = 'stopped';
    Object.assign(this.#run, { status, currentStep: null, endedAt: endedAt.toISOString(), message: failure ?? this.#run.message });
    this.#changed();
  }

  /** The one publish: every transition ends here. */
  #changed(): void {
    this.#publish(structuredClone(this.#run));
  }
}

export function isOver(status: LiveRun['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
