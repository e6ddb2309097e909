// Seeded pseudo-random numbers for the soak's injection times, so a run printed with its seed can be
// run again with the same times: xorshift32, one stream per fault (seed mixed with the fault's id).

export interface Random {
  /** A whole number in [min, max]. */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function seededRandom(seed: number, stream: string): Random {
  // Mixed first: xorshift's early outputs barely differ between nearby seeds.
  let state = mix(seed ^ hash(stream)) || 0x9e3779b9;
  const next = (): number => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
  return {
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** A seed for a run that was given none: printed, so the run can be repeated. */
export function freshSeed(): number {
  return Math.floor(Math.random() * 0x7fff_ffff);
}

/** Spreads every input bit over the whole word (the avalanche step of a 32-bit hash finalizer). */
function mix(value: number): number {
  let mixed = value >>> 0;
  mixed = Math.imul(mixed ^ (mixed >>> 16), 0x85ebca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
  return (mixed ^ (mixed >>> 16)) >>> 0;
}

function hash(text: string): number {
  let value = 2166136261;
  for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 16777619);
  return value >>> 0;
}
