// Whether a run was steady: its throughput and median latency compared between the first and the
// second half of the measured window. A run that drifts (a JIT still warming, a cache filling, GC
// pressure growing, a thermal throttle) is "not steady", with the evidence in words; its averages
// then describe no single state of the server, and comparing them with another run's misleads.
// Pure: the per-second series in, a verdict (or null when too short to say anything) out.

import type { Steadiness } from './run-summary-schema.ts';
import { medianOrNull } from '../common/median.ts';

export interface SecondForSteadiness {
  requests: number;
  durationMs: number;
  /** That second's own p50; null when nothing was answered in it. */
  p50Us: number | null;
}

/**
 * A change between the halves above this is drift. Why 10 %: repeated runs of one configuration on
 * a quiet host differ by a few percent, and the halves of a steady run (each an average over ≥ 5 s)
 * differ by less; a 10 % drift moves the run's average by about 5 %, already as large as many of the
 * differences a comparison is meant to find.
 */
export const DRIFT_THRESHOLD = 0.1;
/** Below this many measured seconds nothing is said: halves of a few seconds are per-second noise. */
export const MIN_STEADY_SECONDS = 10;
/** Halves with fewer answers than this say nothing about requests/s (counting noise alone is ~10 %). */
export const MIN_REQUESTS_PER_HALF = 100;
/** p50 changes smaller than this are timer and scheduler jitter, whatever their percentage. */
export const MIN_P50_CHANGE_US = 50;

function percent(change: number): string {
  return `${Math.round(Math.abs(change) * 100)} %`;
}

function signed(change: number): string {
  const rounded = Math.round(change * 100);
  return `${rounded > 0 ? '+' : rounded < 0 ? '−' : '±'}${Math.abs(rounded)} %`;
}

/**
 * Judges a run's measured seconds. Requests/s per half is its requests over its time (a partial
 * last second weighs by its length). The p50 of a half is the median of its seconds' p50s: not the
 * half's exact p50 (that needs the added histograms), but for a drift check, where each half is
 * compared with the other taken the same way, the median of per-second medians is enough and is
 * robust to one odd second.
 */
export function judgeSteadiness(seconds: readonly SecondForSteadiness[]): Steadiness | null {
  if (seconds.length < MIN_STEADY_SECONDS) return null;
  const mid = Math.floor(seconds.length / 2);
  // An odd count leaves the middle second out, so both halves are equally long.
  const halves = [seconds.slice(0, mid), seconds.slice(seconds.length - mid)];
  const [rpsA, rpsB] = halves.map((half) => {
    const requests = half.reduce((sum, second) => sum + second.requests, 0);
    const ms = half.reduce((sum, second) => sum + second.durationMs, 0);
    return { requests, rate: ms > 0 ? (requests * 1000) / ms : 0 };
  }) as [{ requests: number; rate: number }, { requests: number; rate: number }];
  const [p50A, p50B] = halves.map((half) => medianOrNull(half.map((second) => second.p50Us).filter((us): us is number => us !== null))) as [number | null, number | null];

  const drifts: string[] = [];
  const held: string[] = [];
  let judged = false;
  if (Math.min(rpsA.requests, rpsB.requests) >= MIN_REQUESTS_PER_HALF && rpsA.rate > 0) {
    judged = true;
    const change = rpsB.rate / rpsA.rate - 1;
    if (Math.abs(change) > DRIFT_THRESHOLD) drifts.push(`requests/s ${change < 0 ? 'fell' : 'rose'} ${percent(change)} from the first half to the second`);
    else held.push(`requests/s ${signed(change)}`);
  }
  if (p50A !== null && p50B !== null && p50A > 0) {
    judged = true;
    const change = p50B / p50A - 1;
    if (Math.abs(change) > DRIFT_THRESHOLD && Math.abs(p50B - p50A) >= MIN_P50_CHANGE_US) drifts.push(`p50 ${change < 0 ? 'fell' : 'rose'} ${percent(change)} from the first half to the second`);
    else held.push(`p50 ${signed(change)}`);
  }
  if (!judged) return null;
  if (drifts.length > 0) return { steady: false, message: `not steady: ${drifts.join('; ')}` };
  return { steady: true, message: `steady: between the halves ${held.join(', ')} (within ${percent(DRIFT_THRESHOLD)})` };
}
