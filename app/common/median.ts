// The one median of a list of numbers (the mean of the two middle values for an even count), for
// every figure that reads a middle value: runs, compares, estimates, verdicts.

/** The median of `values`; NaN for none (callers that want null say so where they call it). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of `values`, or null for none (a figure that was not measured). */
export function medianOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : median(values);
}
