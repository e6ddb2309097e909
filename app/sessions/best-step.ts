// Which step of a session its headline figures come from (the Sessions page, `benchlab sessions
// list`). The rule: among the steps that completed, those without signs of saturation, the one with
// the most answered requests/s. Signs of saturation: more than 1 % of the requests sent failed
// (errors, timeouts, non-2xx answers); more than 1 % of the scheduled requests were never sent;
// more than 1 % of the answers came after the step's window (late); an open-model step answered
// under 90 % of the rate it asked for. When every completed step shows a sign, the one with the most
// requests/s among them, marked saturated. A failed or stopped step is never picked while another
// step completed; a session none of whose steps completed shows its step with the most requests/s,
// under its status. Pure.

import { StepLoad, targetRate } from '../runs/load-profile.ts';
import type { RunSummary } from '../runs/run-summary-schema.ts';

/** A share above which a sign counts: 1 % of the requests. */
const SHARE = 0.01;
/** An open-model step that answered under this share of its asked rate could not keep up. */
const KEPT_UP = 0.9;

export interface StepCandidate {
  runId: number;
  ordinal: number;
  status: string;
  stepLabel: string;
  summary: RunSummary;
  /** The step's load as stored with the run, for an open model's asked rate. */
  load: unknown;
}

/** Why a step looks saturated, in words; [] when it does not. */
export function saturationSigns(summary: RunSummary, load: unknown): string[] {
  const signs: string[] = [];
  const errors = Object.values(summary.errors ?? {}).reduce((total, n) => total + (n ?? 0), 0);
  const sent = summary.books ? summary.books.answered + summary.books.errors + summary.books.timeouts : summary.requests + errors;
  if (sent > 0 && summary.failed > sent * SHARE) signs.push(`${((summary.failed / sent) * 100).toFixed(1)} % failed`);
  const notSent = summary.books?.notSent ?? 0;
  const scheduled = summary.books?.scheduled ?? sent + notSent;
  if (scheduled > 0 && notSent > scheduled * SHARE) signs.push(`${((notSent / scheduled) * 100).toFixed(1)} % not sent`);
  const late = summary.requests - summary.requestsPerSecond * summary.seconds;
  if (summary.requests > 0 && late > summary.requests * SHARE) signs.push(`${((late / summary.requests) * 100).toFixed(1)} % answered late`);
  const parsed = StepLoad.safeParse(load);
  const asked = parsed.success ? targetRate(parsed.data) : null;
  if (asked !== null && asked > 0 && summary.requestsPerSecond < asked * KEPT_UP) signs.push(`answered ${Math.round((summary.requestsPerSecond / asked) * 100)} % of the ${Math.round(asked)} req/s asked`);
  return signs;
}

export interface BestStep {
  candidate: StepCandidate;
  /** Every completed step showed saturation signs (these are this step's); [] when it showed none. */
  signs: string[];
}

const byRate = (a: StepCandidate, b: StepCandidate) => b.summary.requestsPerSecond - a.summary.requestsPerSecond || a.ordinal - b.ordinal;

export function pickBestStep(candidates: readonly StepCandidate[]): BestStep | null {
  if (candidates.length === 0) return null;
  const completed = candidates.filter((candidate) => candidate.status === 'completed');
  if (completed.length === 0) return { candidate: [...candidates].sort(byRate)[0]!, signs: [] };
  const judged = completed.map((candidate) => ({ candidate, signs: saturationSigns(candidate.summary, candidate.load) }));
  const clean = judged.filter((entry) => entry.signs.length === 0);
  const pool = clean.length > 0 ? clean : judged;
  return [...pool].sort((a, b) => byRate(a.candidate, b.candidate))[0]!;
}
