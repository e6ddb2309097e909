// What a load stage's line says about its run, while it runs and when it has ended: its status, the
// step it is at, and the figures of a step — named whenever the run has several, so the last step's
// figures are never read as the run's best (the sessions list shows the best step, also named).

import type { LiveRun } from '../runs/runs.ts';

export function describeLoadRun(run: Pick<LiveRun, 'status' | 'currentStep' | 'steps'>): string {
  const several = run.steps.length > 1;
  const step = run.currentStep !== null && several ? `, step ${run.currentStep + 1} of ${run.steps.length}` : '';
  const last = run.steps.filter((candidate) => candidate.summary).at(-1);
  const summary = last?.summary;
  if (!last || !summary) return `${run.status}${step}`;
  const p99 = summary.p99Us != null ? `, p99 ${(summary.p99Us / 1000).toFixed(1)} ms` : '';
  const which = several ? ` last step ${last.label}${last.status !== 'completed' ? ` (${last.status})` : ''}:` : '';
  return `${run.status}${step} —${which} ${Math.round(summary.requestsPerSecond)} req/s${p99}`;
}
