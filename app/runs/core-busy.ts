// Each core's busy share of the server host as a stored second keeps it, and the one reader of it.
// A stored second holds its server reading as JSON, and a key per core (`core.<N>`: 0.973, about
// 15 bytes) made a 64-core host's reading pass the goal of at most 1 KB of runtime figures a
// second. So the shares are one string under `coreBusy`: each core's share in per mille as two
// base64url digits, core 0 first (512 bytes for 256 cores). Per mille is what the agent measures
// (it rounds each share to 0.001) and finer than any screen shows (the per-core chart's percent,
// the verdict's busiest-core evidence to 0.1 %), so nothing read back differs from what was sent.
// Rows stored before this keep their `core.<N>` keys; `coreCpuOf` reads both alike, and every
// reader of the cores (chart point, verdict, export) goes through it.

import type { SecondServerMetrics } from './agent-protocol.ts';

/** The digits of the encoding, value 0 first: base64url, so the string needs no escaping in JSON. */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE = DIGITS.length;
/** A share is kept to this fraction: per mille, as the agent rounds it. */
const STEPS = 1000;

/** Each core's busy share (0..1, core 0 first) as stored under `coreBusy`: two digits per core. */
export function encodeCoreBusy(shares: readonly number[]): string {
  let text = '';
  for (const share of shares) {
    const steps = Math.min(STEPS, Math.max(0, Math.round((Number.isFinite(share) ? share : 0) * STEPS)));
    text += DIGITS[Math.floor(steps / BASE)]! + DIGITS[steps % BASE]!;
  }
  return text;
}

/** The shares of a `coreBusy` string; null when it is not one (a digit outside the set, an odd length). */
function decodeCoreBusy(text: string): number[] | null {
  if (text.length % 2 !== 0) return null;
  const shares: number[] = [];
  for (let at = 0; at < text.length; at += 2) {
    const high = DIGITS.indexOf(text[at]!);
    const low = DIGITS.indexOf(text[at + 1]!);
    if (high < 0 || low < 0) return null;
    const steps = high * BASE + low;
    if (steps > STEPS) return null;
    shares.push(steps / STEPS);
  }
  return shares;
}

/**
 * Each core's busy share (0..1) of a stored server reading, core 0 first: from `coreBusy`, or from
 * the `core.<N>` keys of a row stored before it; empty when the cores were not read (or the stored
 * string is not one this reader wrote).
 */
export function coreCpuOf(server: Readonly<SecondServerMetrics> | null): number[] {
  if (!server) return [];
  if (typeof server.coreBusy === 'string') return decodeCoreBusy(server.coreBusy) ?? [];
  const cores: number[] = [];
  for (let core = 0; typeof server[`core.${core}`] === 'number'; core++) cores.push(server[`core.${core}`]!);
  return cores;
}

/** A stored server reading less its cores, however it stored them (for a reader that shows `coreCpuOf` in their place). */
export function withoutCores(server: Readonly<SecondServerMetrics>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(server).filter(([key]) => key !== 'coreBusy' && !/^core\.\d+$/.test(key)));
}
