// Numbers as the imported files write them, read strictly: a field that is not a plain finite
// number (NaN, Infinity, hex, empty), a negative latency or an absurd one is an error naming the
// line, never a silent zero. Also the exact unit conversions of the tools' printed durations and
// sizes (wrk's "1.23ms", "456.78us", "1.2s"; "4.91MB" in 1024s), to microseconds and bytes.

import { ImportError } from './imported-result.ts';

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Latencies beyond an hour are no benchmark's: a file that says so is damaged or hostile. */
export const MAX_LATENCY_US = 3_600_000_000;

/** A plain decimal number (no NaN, Infinity, hex or blanks), else an error naming the field and line. */
export function readNumber(text: string | undefined, line: number | null, field: string): number {
  const trimmed = (text ?? '').trim();
  const value = PLAIN_NUMBER.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(value)) throw new ImportError(line, `${field} is not a number: ${JSON.stringify(trimmed.slice(0, 40))}`);
  return value;
}

/** A number at least 0 (counts, sizes, offsets). */
export function readNonNegative(text: string | undefined, line: number | null, field: string): number {
  const value = readNumber(text, line, field);
  if (value < 0) throw new ImportError(line, `${field} must not be negative: ${value}`);
  return value;
}

/** A whole count at least 0. */
export function readCount(text: string | undefined, line: number | null, field: string): number {
  const value = readNonNegative(text, line, field);
  if (!Number.isSafeInteger(value)) throw new ImportError(line, `${field} must be a whole number: ${value}`);
  return value;
}

/** A latency already in microseconds, checked: not negative, at most an hour. */
export function checkLatencyUs(us: number, line: number | null, field: string): number {
  if (!Number.isFinite(us)) throw new ImportError(line, `${field} is not a number`);
  if (us < 0) throw new ImportError(line, `${field} must not be negative`);
  if (us > MAX_LATENCY_US) throw new ImportError(line, `${field} is more than an hour: the file is damaged`);
  return us;
}

/** A JSON value that must be a finite number (JSON has no NaN, but a string or null may stand there). */
export function jsonNumber(value: unknown, line: number | null, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ImportError(line, `${field} is not a number`);
  return value;
}

/** Microseconds to the nanosecond: 3.29 ms is 3290 µs, not 3290.0000000000005. */
export function toNanosecond(us: number): number {
  return Math.round(us * 1000) / 1000;
}

const TIME_UNITS_US: Record<string, number> = { ns: 0.001, us: 1, µs: 1, ms: 1000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000 };

/** wrk's printed time ("456.78us", "1.23ms", "1.20s", "2.00m") in microseconds. */
export function parseDurationUs(text: string, line: number | null, field: string): number {
  const match = /^([0-9.]+)(ns|us|µs|ms|s|m|h)$/.exec(text.trim());
  if (!match) throw new ImportError(line, `${field} is not a duration like 1.23ms: ${JSON.stringify(text.trim().slice(0, 40))}`);
  return checkLatencyUs(toNanosecond(readNonNegative(match[1], line, field) * TIME_UNITS_US[match[2]!]!), line, field);
}

const SIZE_UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** wrk's printed size ("4.91MB", "609.73KB") in bytes: 1024-based as wrk prints it, rounded as printed. */
export function parseSizeBytes(text: string, line: number | null, field: string): number {
  const match = /^([0-9.]+)(B|KB|MB|GB|TB)$/.exec(text.trim());
  if (!match) throw new ImportError(line, `${field} is not a size like 4.91MB: ${JSON.stringify(text.trim().slice(0, 40))}`);
  return Math.round(readNonNegative(match[1], line, field) * SIZE_UNITS[match[2]!]!);
}

/** An RFC 3339 time with any fraction of a second, as epoch ms (with the fraction). */
export function parseIsoTimeMs(text: unknown, line: number | null, field: string): number {
  if (typeof text !== 'string') throw new ImportError(line, `${field} is not a time`);
  // Date.parse stops at milliseconds and refuses nanosecond fractions: take the fraction apart.
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  const whole = match ? Date.parse(`${match[1]}${match[3]}`) : Number.NaN;
  if (!Number.isFinite(whole)) throw new ImportError(line, `${field} is not an RFC 3339 time: ${JSON.stringify(text.slice(0, 40))}`);
  return whole + (match![2] ? Number(match![2]) * 1000 : 0);
}
