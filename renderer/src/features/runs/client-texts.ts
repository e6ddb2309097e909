// How the clients table says a client's share of the load and its clock offset, in words: pure, so
// the wording is tested without a browser.

import type { ClockOffset } from '../../../../app/runs/clock-offset.ts';
import type { LiveClient } from '../../../../app/runs/runs.ts';

/** "25 % (weight 1) · 2 connections": its share of all weights, the weight (said when it is the core count), and its part of the step. */
export function clientShareText(client: Pick<LiveClient, 'weight' | 'cores' | 'connections' | 'rate'>, totalWeight: number): string {
  const share = totalWeight > 0 ? `${Math.round((client.weight / totalWeight) * 100)} %` : '–';
  const load = client.connections !== null ? `${client.connections} connections` : client.rate !== null ? `${Math.round(client.rate)} req/s` : null;
  return `${share} (weight ${client.weight}${client.cores !== null && client.weight === client.cores ? ': its cores' : ''})${load ? ` · ${load}` : ''}`;
}

/** Milliseconds with the digits that mean something at that size. */
export function millis(value: number): string {
  const size = Math.abs(value);
  return size >= 100 ? value.toFixed(0) : size >= 1 ? value.toFixed(2) : value.toFixed(3);
}

/** "+1.25 ms ± 0.110 ms": the client's clock minus Benchlab's, and how well it is known. */
export function clockOffsetText(clock: ClockOffset): string {
  return `${clock.offsetMs >= 0 ? '+' : '−'}${millis(Math.abs(clock.offsetMs))} ms ± ${millis(clock.uncertaintyMs)} ms`;
}
