// `benchlab run`'s progress on stderr, fed by the plan's progress and the live run's points. On a
// terminal one live line is redrawn in place (the stage, elapsed of the estimate, requests/s and
// p99 of the second just measured) with a line kept above it for each stage that ends; elsewhere
// (CI logs, pipes) plain lines only: one when a stage starts, one when it ends, one when a load's
// first measured second arrives, and then one at least every 10 s while a stage runs (a load's
// requests/s, p99 and errors so far; another stage's step), so a log never falls silent for minutes
// and never gets a line per second. A deploy's end says whether it built its artifact or reused it.

import { formatDuration, type PlanStage, type PlanState } from '../../app/plans/plan.ts';
import type { LivePoint } from '../../app/runs/runs.ts';
import { formatValue } from '../../app/sessions/comparison-report.ts';
import { DEPLOY_STEPS } from '../../app/templates/templates-contract.ts';

export interface RunProgressOptions {
  stream: NodeJS.WritableStream & { columns?: number };
  /** Redraw one live line (a terminal) rather than print plain lines. */
  live: boolean;
  now?: () => number;
  /** How often a plain log is checked for silence (tests drive `tick()` themselves with 0). */
  tickMs?: number;
}

/** A plain log says how a running stage is doing at least this often. */
export const PLAIN_EVERY_MS = 10_000;

/** The build step's detail as the plan runner words it: `Build on this machine: <step>[: up to date …]`. */
const BUILD_DETAIL = `${DEPLOY_STEPS[1].label}: `;
const UP_TO_DATE = ': up to date';

const ENDED: ReadonlySet<PlanStage['status']> = new Set(['done', 'failed', 'skipped', 'cancelled']);

function clock(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** "40,120 req/s, p99 2.10 ms" for one second of load; "warm-up" while it warms up. */
export function describePoint(point: LivePoint): string {
  const figures = `${formatValue({ unit: 'rps' }, point.rps)} req/s, p99 ${formatValue({ unit: 'us' }, point.p99Us)}`;
  return point.warmup ? `warm-up: ${figures}` : figures;
}

export class RunProgress {
  readonly #stream: RunProgressOptions['stream'];
  readonly #live: boolean;
  readonly #now: () => number;
  #plan: PlanState | null = null;
  /** Each stage's status as last reported, to print its start and end once. */
  readonly #seen = new Map<string, PlanStage['status']>();
  /** Load stages whose first measured second was reported (plain mode). */
  readonly #loadSeen = new Set<string>();
  #point: LivePoint | null = null;
  #drawn = false;
  #lastPrintAt: number;
  /** The running stage's measured seconds so far: requests and errors (each point is one second). */
  #tally = { requests: 0, errors: 0 };
  /** The running deploy's build steps: run anew, or reused as up to date. */
  #build = { built: new Set<string>(), reused: new Set<string>(), nothing: false };
  readonly #timer: ReturnType<typeof setInterval> | null;

  constructor(options: RunProgressOptions) {
    this.#stream = options.stream;
    this.#live = options.live;
    this.#now = options.now ?? Date.now;
    this.#lastPrintAt = this.#now();
    const tickMs = options.tickMs ?? 1000;
    this.#timer = !this.#live && tickMs > 0 ? setInterval(() => this.tick(), tickMs) : null;
    this.#timer?.unref();
  }

  /** A plan's progress event: stage starts and ends become lines; the live line follows. */
  plan(state: PlanState): void {
    this.#plan = state;
    const total = state.stages.length;
    state.stages.forEach((stage, index) => {
      const before = this.#seen.get(stage.id);
      if (stage.kind === 'deploy' && stage.status === 'running') {
        if (before !== 'running') this.#build = { built: new Set(), reused: new Set(), nothing: false };
        this.#noteBuild(stage.detail);
      }
      if (before === stage.status) return;
      this.#seen.set(stage.id, stage.status);
      const prefix = `[${index + 1}/${total}]`;
      if (stage.status === 'running' && !this.#live) this.#print(`${prefix} ${stage.label}`);
      if (stage.status === 'running') {
        this.#point = null;
        this.#tally = { requests: 0, errors: 0 };
      }
      // Stages that never ran (skipped or cancelled from pending) end quietly; a failure is always said.
      if (ENDED.has(stage.status) && (before === 'running' || stage.status === 'failed')) this.#print(`${prefix} ${this.#ended(stage)}`);
    });
    this.#redraw();
  }

  /** The live run's latest seconds: the last one is "the current second". */
  points(points: readonly LivePoint[]): void {
    const last = points.at(-1);
    if (!last) return;
    this.#point = last;
    for (const measured of points) {
      if (measured.warmup) continue;
      this.#tally.requests += measured.rps;
      this.#tally.errors += measured.errorsPerS;
    }
    const stage = this.#running();
    if (!this.#live && stage?.kind === 'load' && !last.warmup && !this.#loadSeen.has(stage.id)) {
      this.#loadSeen.add(stage.id);
      this.#print(`[${this.#plan!.stages.indexOf(stage) + 1}/${this.#plan!.stages.length}] load running: ${describePoint(last)}`);
    }
    this.tick();
    this.#redraw();
  }

  /** In a plain log, a line for the running stage when nothing was printed for PLAIN_EVERY_MS. */
  tick(): void {
    if (this.#live || !this.#plan) return;
    const stage = this.#running();
    if (!stage || this.#now() - this.#lastPrintAt < PLAIN_EVERY_MS) return;
    const index = this.#plan.stages.indexOf(stage);
    const parts = [`[${index + 1}/${this.#plan.stages.length}] ${stage.label}`];
    if (stage.startedAt) parts.push(`${clock((this.#now() - Date.parse(stage.startedAt)) / 1000)} in`);
    if (stage.kind === 'load' && this.#point) {
      const { requests, errors } = this.#tally;
      const share = requests > 0 ? ` (${((errors / requests) * 100).toFixed(2)} %)` : '';
      parts.push(describePoint(this.#point), `errors so far ${formatValue({ unit: 'count' }, Math.round(errors))}${share}`);
    } else parts.push(stage.detail ?? (stage.kind === 'load' ? 'no measured second yet' : 'working'));
    this.#print(parts.join(' · '));
  }

  #noteBuild(detail: string | null): void {
    if (!detail?.startsWith(BUILD_DETAIL)) return;
    const step = detail.slice(BUILD_DETAIL.length);
    if (step === 'nothing to build') this.#build.nothing = true;
    else if (step.includes(UP_TO_DATE)) this.#build.reused.add(step.slice(0, step.indexOf(UP_TO_DATE)));
    else this.#build.built.add(step);
  }

  /** What a deploy did with its artifact, as its end line says it. */
  #buildOutcome(): string {
    const { built, reused, nothing } = this.#build;
    if (built.size > 0) return `; built anew (${[...built].join(', ')})`;
    if (reused.size > 0) return `; build reused, sources unchanged (${[...reused].join(', ')})`;
    return nothing ? '; nothing to build' : '';
  }

  /** A line of its own, kept above the live line. */
  line(text: string): void {
    this.#print(text);
    this.#redraw();
  }

  /** Leaves the terminal with no live line, before the summary. */
  finish(): void {
    this.#clear();
    this.#plan = null;
    if (this.#timer) clearInterval(this.#timer);
  }

  #print(text: string): void {
    this.#clear();
    this.#stream.write(`${text}\n`);
    this.#lastPrintAt = this.#now();
  }

  #running(): PlanStage | undefined {
    return this.#plan?.stages.find((stage) => stage.status === 'running');
  }

  #ended(stage: PlanStage): string {
    const took = stage.startedAt && stage.endedAt ? ` in ${formatDuration((Date.parse(stage.endedAt) - Date.parse(stage.startedAt)) / 1000)}` : '';
    const detail = stage.detail ? `: ${stage.detail}` : '';
    // A preset some of whose keys did not take effect is a warning, not a plain "done".
    if (stage.status === 'done' && stage.warning) return `${stage.label} — ${stage.detail ?? 'applied'}, WARNING: ${stage.warning}`;
    const word = stage.status === 'done' ? `done${took}` : stage.status;
    const build = stage.kind === 'deploy' && stage.status === 'done' ? this.#buildOutcome() : '';
    return `${stage.label} — ${word}${detail}${build}`;
  }

  #redraw(): void {
    if (!this.#live || !this.#plan) return;
    const stage = this.#running();
    if (!stage) return this.#clear();
    const index = this.#plan.stages.indexOf(stage);
    const elapsed = (this.#now() - Date.parse(this.#plan.startedAt)) / 1000;
    const parts = [`[${index + 1}/${this.#plan.stages.length}] ${stage.label}`, `${clock(elapsed)} of ~${clock(this.#plan.estimateS)}`];
    if (stage.kind === 'load' && this.#point) parts.push(describePoint(this.#point));
    else if (stage.detail) parts.push(stage.detail);
    let text = parts.join(' · ');
    // A line wider than the terminal wraps, and \r then redraws only its last row.
    const width = this.#stream.columns ?? 0;
    if (width > 1 && text.length >= width) text = `${text.slice(0, width - 2)}…`;
    this.#stream.write(`\r\u001b[2K${text}`);
    this.#drawn = true;
  }

  #clear(): void {
    if (!this.#drawn) return;
    this.#stream.write('\r\u001b[2K');
    this.#drawn = false;
  }
}
