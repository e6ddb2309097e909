// How one step's load is shared by several load clients: each client's weight (given, else its
// core count), and the step's connections, request counts and rate split by those weights so the
// parts add up exactly to what the user asked for (largest remainder), each client keeping at least
// one connection. What cannot be split comes back as a one-line reason instead.

import type { StepLoad } from './load-profile.ts';
import { plural } from '../common/plural.ts';

/** Each client's weight: the given one, else its core count, else 1. */
export function clientWeights(clients: readonly { weight?: number | undefined; cores: number | null }[]): number[] {
  return clients.map((client) => {
    if (client.weight !== undefined && client.weight > 0) return client.weight;
    if (client.cores !== null && client.cores > 0) return client.cores;
    return 1;
  });
}

/**
 * `total` whole units split by weight, largest remainder first (ties to the earlier client), so the
 * parts add up to `total`; with `atLeastOne`, a client whose share rounds to 0 takes one unit from
 * the largest part. Null when `atLeastOne` cannot hold (fewer units than clients).
 */
function apportion(total: number, weights: readonly number[], atLeastOne: boolean): number[] | null {
  if (atLeastOne && total < weights.length) return null;
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const quotas = weights.map((weight) => (total * weight) / weightSum);
  const parts = quotas.map(Math.floor);
  let left = total - parts.reduce((sum, part) => sum + part, 0);
  const byRemainder = quotas.map((quota, index) => ({ index, remainder: quota - Math.floor(quota) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    parts[index]!++;
    left--;
  }
  if (atLeastOne) {
    for (let index = 0; index < parts.length; index++) {
      if (parts[index]! > 0) continue;
      const largest = parts.indexOf(Math.max(...parts));
      parts[largest]!--;
      parts[index] = 1;
    }
  }
  return parts;
}


/** A rate split by weight: whole requests/s when the rate is whole and every client gets one, else exact shares. */
function splitRate(rate: number, weights: readonly number[]): number[] {
  const whole = Number.isInteger(rate) ? apportion(rate, weights, true) : null;
  if (whole) return whole;
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (rate * weight) / weightSum);
}

/**
 * One step's load split over the clients by weight (largest remainder, so the parts add up exactly):
 * closed: connections (each ≥ 1) and a fixed request count; open: rate or requests-over-duration, and
 * the connection maximum if given (each ≥ 1). Returns a one-line reason instead when it cannot split
 * (e.g. "3 connections cannot be split over 4 clients").
 */
export function splitStepLoad(load: StepLoad, weights: readonly number[]): StepLoad[] | string {
  if (weights.length === 0) return 'the load needs at least one client';
  if (weights.some((weight) => !Number.isFinite(weight) || weight <= 0)) return 'every client weight must be a number greater than 0';
  if (weights.length === 1) return [load];
  const clients = plural(weights.length, 'client');
  const connections = load.connections === undefined ? null : apportion(load.connections, weights, true);
  if (load.connections !== undefined && !connections) {
    return `${plural(load.connections, 'connection')} cannot be split over ${clients}: give at least one connection per client`;
  }
  if (load.model === 'closed') {
    // Each client first gets one request per connection (the load's own rule), then the rest by weight.
    const extra = load.requests === undefined ? null : apportion(load.requests - load.connections, weights, false)!;
    const requests = extra && extra.map((count, index) => count + connections![index]!);
    return weights.map((_, index) => {
      const part: StepLoad = { ...load, connections: connections![index]! };
      if (requests) part.requests = requests[index]!;
      return part;
    });
  }
  let requests: number[] | null = null;
  if (load.requests !== undefined) {
    requests = apportion(load.requests, weights, true);
    if (!requests) return `${plural(load.requests, 'request')} cannot be split over ${clients}: give at least one request per client`;
  }
  const rates = load.rate === undefined ? null : splitRate(load.rate, weights);
  return weights.map((_, index) => {
    const part: StepLoad = { ...load };
    if (requests) part.requests = requests[index]!;
    if (rates) part.rate = rates[index]!;
    if (connections) part.connections = connections[index]!;
    return part;
  });
}
