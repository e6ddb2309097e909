// JSON stored in a TEXT column, read back: the one reader of stored JSON. A value that no longer
// parses reads as the fallback, so one damaged row is shown empty rather than failing the whole list
// it is in; where a guess would be dangerous (the preset journal's restore records) the strict
// reader throws, naming the column.


import { messageOf } from '../../../app/common/errors.ts';

export function parseJsonColumn<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A stored JSON value that must parse: a damaged one is an error, never a silent default. */
export function readJsonColumn(text: string, column: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`the stored ${column} is not valid JSON: ${messageOf(error)}`, { cause: error });
  }
}
