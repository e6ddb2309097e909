// How often the comparison verdict is wrong, measured by simulation: many seeded trials of n runs
// against n runs, both drawn from one distribution (any verdict other than "no difference" is a
// false positive), or with B truly shifted by a factor (finding it is the power). The tests hold
// the verdict to its promise with these, and `npm run bench` prints the false-positive rate.

import { MIN_RUNS_FOR_VERDICT, ratioVerdict, seededRandom, type Random } from './compare-stats.ts';

/** Run-to-run noise: symmetric (normal), skewed multiplicative (log-normal), or skewed with a long slow tail (a run that lost its CPU now and then). */
export type RunNoise = 'normal' | 'lognormal' | 'slow-tail';

export interface CalibrationOptions {
  trials?: number;
  /** Runs per side. */
  runs?: number;
  noise?: RunNoise;
  /** The noise's size: the coefficient of variation (normal), σ of the log (log-normal), the mean loss (slow-tail). */
  spread?: number;
  /** B's true value as a multiple of A's: 1 for no difference. */
  factor?: number;
  seed?: number;
  /** The interval's confidence level (the app's is 0.95). */
  level?: number;
}

/** A standard normal draw (Box–Muller). */
function gaussian(random: Random): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export const DEFAULT_SPREAD: Record<RunNoise, number> = { normal: 0.05, lognormal: 0.1, 'slow-tail': 0.05 };

/** One run's requests/s around 10,000 with the given noise, times `factor`. */
function draw(random: Random, noise: RunNoise, spread: number, factor: number): number {
  const z = gaussian(random);
  let value: number;
  if (noise === 'normal') value = 10_000 * (1 + spread * z);
  else if (noise === 'lognormal') value = 10_000 * Math.exp(spread * z);
  else value = 10_000 * Math.exp(-spread * -Math.log(1 - random())); // exponential loss: most runs near the top, a few far below
  return value * factor;
}

/** The share of trials in which the verdict claims a difference (higher or lower). */
export function verdictRate(options: CalibrationOptions = {}): number {
  const { trials = 1000, runs = MIN_RUNS_FOR_VERDICT, noise = 'normal', factor = 1, seed = 1 } = options;
  const spread = options.spread ?? DEFAULT_SPREAD[noise];
  const random = seededRandom(seed);
  let claimed = 0;
  for (let trial = 0; trial < trials; trial++) {
    const a = Array.from({ length: runs }, () => draw(random, noise, spread, 1));
    const b = Array.from({ length: runs }, () => draw(random, noise, spread, factor));
    const { kind } = ratioVerdict(a, b, { level: options.level ?? 0.95 });
    if (kind === 'higher' || kind === 'lower') claimed++;
  }
  return claimed / trials;
}

/** The false-positive rate: two configurations that are the same, called different. */
export function falsePositiveRate(options: Omit<CalibrationOptions, 'factor'> = {}): number {
  return verdictRate({ ...options, factor: 1 });
}
