// The Run page's form as typed (strings) and its translation into a load profile for the
// contract. Numbers that do not parse stay NaN so the profile's own validation names the field.

import type { HTTP_METHODS, LoadProfile, LoadProfileInput, OnTimeout } from '../../../../app/runs/load-profile.ts';
import type { ThinkTime, ThinkTimeInput } from '../../../../app/runs/think-time.ts';

export interface ProfileDraft {
  target: string;
  path: string;
  method: (typeof HTTP_METHODS)[number];
  headers: string;
  body: string;
  timeoutMs: string;
  /** `1.0`: ab's HTTP/1.0, a connection per request. */
  httpVersion: '1.1' | '1.0';
  /** Closed model: `wait` keeps a timed-out request's connection waiting for its answer (wrk). */
  onTimeout: OnTimeout;
  model: 'closed' | 'open';
  connections: string;
  pipelining: string;
  closedStop: 'duration' | 'requests';
  durationS: string;
  requests: string;
  /** Closed model: a pause per connection before each request (app/runs/think-time.ts). */
  thinkKind: 'none' | 'fixed' | 'uniform';
  thinkMs: string;
  thinkMinMs: string;
  thinkMaxMs: string;
  /** Empty: pauses are not rounded. */
  thinkRoundToMs: string;
  openKind: 'rate' | 'requests';
  rate: string;
  openRequests: string;
  openDurationS: string;
  /** Empty: as many as the rate needs (rate × timeout, within the client's file limit). */
  openConnections: string;
  sweep: string;
  warmupS: string;
  pauseS: string;
  bucketsMs: string;
}

export const DEFAULT_DRAFT: ProfileDraft = {
  target: '',
  path: '/hello',
  method: 'GET',
  headers: '',
  body: '',
  timeoutMs: '10000',
  httpVersion: '1.1',
  onTimeout: 'close',
  model: 'closed',
  connections: '10',
  pipelining: '1',
  closedStop: 'duration',
  durationS: '10',
  requests: '10000',
  thinkKind: 'none',
  thinkMs: '1000',
  thinkMinMs: '0',
  thinkMaxMs: '1000',
  thinkRoundToMs: '',
  openKind: 'rate',
  rate: '1000',
  openRequests: '30000',
  openDurationS: '30',
  openConnections: '',
  sweep: '',
  warmupS: '0',
  pauseS: '2',
  bucketsMs: '800, 1200',
};

/** A saved profile draft back as a ProfileDraft: each field kept if it is text, else the fallback's. */
export function restoreProfileDraft(saved: unknown, fallback: ProfileDraft = DEFAULT_DRAFT): ProfileDraft {
  const raw = typeof saved === 'object' && saved !== null ? (saved as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(fallback).map(([key, value]) => [key, typeof raw[key] === 'string' ? raw[key] : value])) as unknown as ProfileDraft;
}

function number(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim());
}

function list(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number);
}

/** `Name: value` per line; a line without a colon is kept whole as a name so validation names it. */
export function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 0) headers[line.trim()] = '';
    else headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The draft's think time for the profile; none when the user chose none. */
function thinkTimeOf(draft: ProfileDraft): { thinkTime?: ThinkTimeInput } {
  if (draft.thinkKind === 'fixed') return { thinkTime: { kind: 'fixed', ms: number(draft.thinkMs) } };
  if (draft.thinkKind !== 'uniform') return {};
  const roundTo = draft.thinkRoundToMs.trim() === '' ? {} : { roundToMs: number(draft.thinkRoundToMs) };
  return { thinkTime: { kind: 'uniform', minMs: number(draft.thinkMinMs), maxMs: number(draft.thinkMaxMs), ...roundTo } };
}

export function profileOf(draft: ProfileDraft): LoadProfileInput {
  const load: LoadProfileInput['load'] =
    draft.model === 'closed'
      ? {
          model: 'closed',
          connections: number(draft.connections),
          pipelining: number(draft.pipelining),
          ...(draft.closedStop === 'duration' ? { durationS: number(draft.durationS) } : { requests: number(draft.requests) }),
          ...thinkTimeOf(draft),
        }
      : {
          model: 'open',
          durationS: number(draft.openDurationS),
          ...(draft.openConnections.trim() === '' ? {} : { connections: number(draft.openConnections) }),
          ...(draft.openKind === 'rate' ? { rate: number(draft.rate) } : { requests: number(draft.openRequests) }),
        };
  return {
    target: draft.target.trim(),
    request: {
      method: draft.method,
      path: draft.path.trim(),
      headers: parseHeaders(draft.headers),
      ...(draft.body ? { body: draft.body } : {}),
      timeoutMs: number(draft.timeoutMs),
      // 1.1 is the default, left out so a profile reads as it did before the option.
      ...(draft.httpVersion === '1.0' ? { httpVersion: '1.0' as const } : {}),
      // Likewise close; waiting is the closed model's only (the form hides it for the open one).
      ...(draft.model === 'closed' && draft.onTimeout === 'wait' ? { onTimeout: 'wait' as const } : {}),
    },
    load,
    sweep: list(draft.sweep),
    warmupS: number(draft.warmupS),
    pauseS: number(draft.pauseS),
    bucketsMs: list(draft.bucketsMs),
  };
}

const THINK_FIELDS: Record<string, keyof ProfileDraft> = { ms: 'thinkMs', minMs: 'thinkMinMs', maxMs: 'thinkMaxMs', roundToMs: 'thinkRoundToMs' };

/** The form field that shows a profile error path (`load.connections` → `connections`). */
export function fieldOfError(path: string, draft: ProfileDraft): string {
  const [head, second] = path.split('.');
  if (head === 'request') return second === 'headers' ? 'headers' : (second ?? 'path');
  if (head === 'sweep') return 'sweep';
  if (head === 'load') {
    if (draft.model === 'closed') {
      if (second === 'thinkTime') return THINK_FIELDS[path.split('.')[2] ?? ''] ?? 'thinkKind';
      return second ?? 'connections';
    }
    if (second === 'requests') return 'openRequests';
    if (second === 'durationS') return 'openDurationS';
    if (second === 'connections') return 'openConnections';
    return second ?? 'rate';
  }
  return head ?? 'target';
}

/** The form's text for a profile (a study's, or a saved session's): the inverse of profileOf. */
export function draftOfProfile(profile: Omit<LoadProfile, 'target'> & { target?: string }): ProfileDraft {
  const { load } = profile;
  const text = (value: number | undefined, fallback: string) => (value === undefined ? fallback : String(value));
  return {
    ...DEFAULT_DRAFT,
    target: profile.target ?? '',
    path: profile.request.path,
    method: profile.request.method,
    headers: Object.entries(profile.request.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    body: profile.request.body ?? '',
    timeoutMs: String(profile.request.timeoutMs),
    httpVersion: profile.request.httpVersion ?? '1.1',
    onTimeout: profile.request.onTimeout ?? 'close',
    model: load.model,
    ...(load.model === 'closed'
      ? {
          connections: String(load.connections),
          pipelining: String(load.pipelining),
          closedStop: load.requests !== undefined ? 'requests' : 'duration',
          durationS: text(load.durationS, DEFAULT_DRAFT.durationS),
          requests: text(load.requests, DEFAULT_DRAFT.requests),
          ...draftOfThinkTime(load.thinkTime),
        }
      : {
          openKind: load.requests !== undefined ? 'requests' : 'rate',
          rate: text(load.rate, DEFAULT_DRAFT.rate),
          openRequests: text(load.requests, DEFAULT_DRAFT.openRequests),
          openDurationS: String(load.durationS),
          openConnections: load.connections === undefined ? '' : String(load.connections),
        }),
    sweep: profile.sweep.join(', '),
    warmupS: String(profile.warmupS),
    pauseS: String(profile.pauseS),
    bucketsMs: profile.bucketsMs.join(', '),
  };
}

function draftOfThinkTime(think: ThinkTime | undefined): Partial<ProfileDraft> {
  if (!think) return {};
  if (think.kind === 'fixed') return { thinkKind: 'fixed', thinkMs: String(think.ms) };
  return { thinkKind: 'uniform', thinkMinMs: String(think.minMs), thinkMaxMs: String(think.maxMs), thinkRoundToMs: think.roundToMs === undefined ? '' : String(think.roundToMs) };
}

/** What a sweep's values count under a model (and, open, a kind of load), in words. */
function sweepUnit(draft: Pick<ProfileDraft, 'model' | 'openKind'>): string {
  return draft.model === 'closed' ? 'connections' : draft.openKind === 'rate' ? 'rates (req/s)' : 'request counts';
}

/**
 * The change of model (or of open load kind) a user picked, with the sweep cleared when its values
 * would count something else (rates 500–4000 must not become 4,000 connections), and the note that
 * says so; no note when there was no sweep or its values keep their meaning.
 */
export function switchLoad(draft: ProfileDraft, change: Partial<Pick<ProfileDraft, 'model' | 'openKind'>>): { change: Partial<ProfileDraft>; note: string | null } {
  const next = { model: change.model ?? draft.model, openKind: change.openKind ?? draft.openKind };
  const before = sweepUnit(draft);
  const after = sweepUnit(next);
  if (draft.sweep.trim() === '' || before === after) return { change, note: null };
  return { change: { ...change, sweep: '' }, note: `The sweep of ${before} (${draft.sweep.trim()}) was cleared: its values would have become ${after}. Enter the ${after} per step.` };
}
