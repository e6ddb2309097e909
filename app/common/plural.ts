// A count with its noun in the right number ("1 session", "3 sessions"), for every text that
// names how many of something there are.

/** `count` and `word`, or `many` (default: word + "s") when count is not 1. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
