// `benchlab run`'s progress on stderr, fed by the plan's progress and the live run's points. On a
// terminal one live line is redrawn in place (the stage, elapsed of the estimate, requests/s and
// p99 of the second just measured) with a line kept above it for each stage that ends; elsewhere
// (CI logs, pipes) plain lines only: one when a stage starts, one when it ends, and one when a
// load's first measured second arrives, so a log says the load ran without a line per second.

import { formatDuration, type PlanStage, type PlanState } from '../../app/plans/plan.ts';
import type { LivePoint } from '../../app/runs/runs.ts';
import { formatValue } from '../../app/sessions/comparison-report.ts';

export interface RunProgressOptions {
  stream: NodeJS.WritableStream & { columns?: number };
  /** Redraw one live line (a terminal) rather than print plain lines. */
  live: boolean;
  now?: () => number;
}

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

  constructor(options: RunProgressOptions) {
    this.#stream = options.stream;
    this.#live = options.live;
    this.#now = options.now ?? Date.now;
  }

  /** A plan's progress event: stage starts and ends become lines; the live line follows. */
  plan(state: PlanState): void {
    this.#plan = state;
    const total = state.stages.length;
    state.stages.forEach((stage, index) => {
      const before = this.#seen.get(stage.id);
      if (before === stage.status) return;
      this.#seen.set(stage.id, stage.status);
      const prefix = `[${index + 1}/${total}]`;
      if (stage.status === 'running' && !this.#live) this.#print(`${prefix} ${stage.label}`);
      if (stage.status === 'running') this.#point = null;
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
    const stage = this.#running();
    if (!this.#live && stage?.kind === 'load' && !last.warmup && !this.#loadSeen.has(stage.id)) {
      this.#loadSeen.add(stage.id);
      this.#print(`[${this.#plan!.stages.indexOf(stage) + 1}/${this.#plan!.stages.length}] load running: ${describePoint(last)}`);
    }
    this.#redraw();
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
  }

  #print(text: string): void {
    this.#clear();
    this.#stream.write(`${text}\n`);
  }

  #running(): PlanStage | undefined {
    return this.#plan?.stages.find((stage) => stage.status === 'running');
  }

  #ended(stage: PlanStage): string {
    const took = stage.startedAt && stage.endedAt ? ` in ${formatDuration((Date.parse(stage.endedAt) - Date.parse(stage.startedAt)) / 1000)}` : '';
    const detail = stage.detail ? `: ${stage.detail}` : '';
    const word = stage.status === 'done' ? `done${took}` : stage.status;
    return `${stage.label} — ${word}${detail}`;
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
