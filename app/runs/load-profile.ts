// Load profiles: what the user asks the load engine for, validated with messages that name the
// field. Closed model (connections, pipelining, a duration or a fixed number of requests, as
// `ab -n 10000 -c 100`), open model (a target rate, or "N requests over T s" as Gatling's seeds),
// warm-up, and sweeps (a list of connection counts or rates run one after another with a pause).
// Also expands a profile into the concrete steps the orchestrator runs, and their time caps.

import { z } from 'zod';
import { describeAddressProblem } from '../hosts/hosts.ts';
import { hasControlCharacters } from '../common/text.ts';
import { plural } from '../common/plural.ts';
import { describeThinkTime, ThinkTime } from './think-time.ts';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const HTTP_VERSIONS = ['1.1', '1.0'] as const;

/**
 * What a request still unanswered at its timeout does to its connection: `close` gives it up and
 * closes the connection (a new one takes its place), as most load tools do; `wait` counts it as a
 * timeout and keeps the connection waiting for the answer, which is read and not counted, before
 * the connection's next request, as wrk counts its timeouts. The closed model only.
 */
export const ON_TIMEOUT = ['close', 'wait'] as const;
export type OnTimeout = (typeof ON_TIMEOUT)[number];

/** Whether every request of this spec opens its own connection: HTTP/1.0, or a `Connection: close` header. */
export function connectionPerRequest(request: Pick<RequestSpec, 'headers'> & { httpVersion?: string | undefined }): boolean {
  if (request.httpVersion === '1.0') return true;
  return Object.entries(request.headers).some(([name, value]) => name.toLowerCase() === 'connection' && /(^|,)\s*close\s*(,|$)/i.test(value));
}

export const MAX_CONNECTIONS = 100_000;
export const MAX_RATE = 1_000_000;
export const MAX_STEP_SECONDS = 24 * 3600;
/** A step with a fixed request count has no natural end in time: it is cut here unless told otherwise. */
export const DEFAULT_COUNT_STEP_CAP_S = 600;
export const DEFAULT_BUCKETS_MS = [800, 1200] as const;

const wholeNumber = (min: number, max: number, unit = '') =>
  z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}${unit}`)
    .max(max, `must be at most ${max}${unit}`);

const seconds = (max: number) =>
  z
    .number({ error: 'must be a number' })
    .gt(0, 'must be greater than 0')
    .max(max, `must be at most ${max} s`);

const Connections = wholeNumber(1, MAX_CONNECTIONS);
const Rate = z.number({ error: 'must be a number' }).gt(0, 'must be greater than 0').max(MAX_RATE, `must be at most ${MAX_RATE} requests/s`);
const RequestCount = wholeNumber(1, 1_000_000_000);

/** `http://host:port` (no path: the path belongs to the request), parsed without URL (app/ has no DOM). */
export interface ParsedTarget {
  protocol: 'http' | 'https';
  hostname: string;
  port: number;
}

const TARGET = /^(https?):\/\/(\[[^\]]*\]|[^/:?#\s[\]]+)(?::(\d{1,5}))?\/?$/i;

export function parseTarget(text: string): ParsedTarget | string {
  const match = TARGET.exec(text.trim());
  if (!match) return 'must look like http://host:port (the path goes in the Path field)';
  const protocol = match[1]!.toLowerCase() as 'http' | 'https';
  const host = match[2]!;
  const problem = describeAddressProblem(host);
  if (problem) return `host ${problem}`;
  const port = match[3] === undefined ? (protocol === 'https' ? 443 : 80) : Number(match[3]);
  if (port < 1 || port > 65535) return 'port must be between 1 and 65535';
  return { protocol, hostname: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

export const Target = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(300, 'is too long')
  .superRefine((text, ctx) => {
    const parsed = parseTarget(text);
    if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
  })
  // The path is the request's and starts with "/": a trailing slash here would double it.
  .transform((text) => text.replace(/\/$/, ''));

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const RequestSpec = z
  .object({
    method: z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(', ')}` }).default('GET'),
    path: z
      .string({ error: 'is required' })
      .min(1, 'is required')
      .max(2048, 'is too long')
      .refine((path) => path.startsWith('/'), 'must start with "/" (for example /hello)')
      .refine((path) => !/\s/.test(path) && !hasControlCharacters(path), 'must not contain spaces or control characters'),
    headers: z
      .record(
        z.string().regex(HEADER_NAME, 'header names hold only letters, digits and !#$%&\'*+.^_`|~-'),
        z.string().max(8192, 'is too long').refine((value) => !/[\r\n\0]/.test(value), 'must not contain line breaks'),
      )
      .default({}),
    body: z.string().max(1024 * 1024, 'must be at most 1 MiB').optional(),
    /** A request without an answer after this long counts as a timeout error. */
    timeoutMs: wholeNumber(100, 120_000, ' ms').default(10_000),
    /**
     * `1.0`: the request line says HTTP/1.0 and every request opens its own connection, as ab sends
     * it. `1.1` (absent: the default) keeps connections alive unless a `Connection: close` header
     * asks otherwise.
     */
    httpVersion: z
      // A plan file's unquoted 1.0 or 1.1 is read as a number.
      .preprocess((value) => (value === 1 ? '1.0' : value === 1.1 ? '1.1' : value), z.enum(HTTP_VERSIONS, { error: `must be "${HTTP_VERSIONS.join('" or "')}"` }))
      .optional(),
    /** Absent: `close`. */
    onTimeout: z.enum(ON_TIMEOUT, { error: `must be "${ON_TIMEOUT.join('" or "')}"` }).optional(),
  })
  .strict();
export type RequestSpec = z.output<typeof RequestSpec>;

/**
 * Why this request cannot run under this load, or null. Waiting past the timeout is for the closed
 * model: the open one's timed-out request frees its connection for the slots behind it.
 */
function describeTimeoutProblem(request: Pick<RequestSpec, 'onTimeout'>, load: Pick<StepLoad, 'model'>): string | null {
  return request.onTimeout === 'wait' && load.model !== 'closed' ? 'wait is for the closed model: the open model closes a timed-out request\'s connection to free it for the next' : null;
}

function exactlyOne(load: Record<string, unknown>, keys: [string, string], ctx: z.RefinementCtx, message: string): void {
  const given = keys.filter((key) => load[key] !== undefined);
  if (given.length !== 1) ctx.addIssue({ code: 'custom', path: [given.length === 0 ? keys[0] : keys[1]], message });
}

export const ClosedLoad = z
  .object({
    model: z.literal('closed'),
    connections: Connections,
    pipelining: wholeNumber(1, 64).default(1),
    durationS: seconds(MAX_STEP_SECONDS).optional(),
    /** A fixed number of requests instead of a duration (as `ab -n`). */
    requests: RequestCount.optional(),
    /** A pause per connection before each request (app/runs/think-time.ts); absent: none. */
    thinkTime: ThinkTime.optional(),
  })
  .strict()
  .superRefine((load, ctx) => {
    exactlyOne(load, ['durationS', 'requests'], ctx, 'give either a duration or a number of requests, not both');
    if (load.thinkTime !== undefined && load.pipelining > 1) {
      ctx.addIssue({ code: 'custom', path: ['pipelining'], message: 'must be 1 with a think time: a connection pauses between an answer and its next request' });
    }
    if (load.requests !== undefined && load.requests < load.connections) {
      ctx.addIssue({ code: 'custom', path: ['requests'], message: 'must be at least the number of connections' });
    }
  });
export type ClosedLoad = z.output<typeof ClosedLoad>;

export const OpenLoad = z
  .object({
    model: z.literal('open'),
    /** Target requests per second, sent on schedule whether or not earlier ones were answered. */
    rate: Rate.optional(),
    /** "N requests over durationS": the rate is requests / durationS and exactly N are sent. */
    requests: RequestCount.optional(),
    durationS: seconds(MAX_STEP_SECONDS),
    /**
     * The most connections the client opens (on demand, as the rate needs them); a request waits for
     * a free one (the wait counts in its latency) and is counted not sent if none frees up within its
     * timeout. Absent: enough for the rate × the request timeout, bounded by the client's file limit.
     */
    connections: Connections.optional(),
  })
  .strict()
  .superRefine((load, ctx) => exactlyOne(load, ['rate', 'requests'], ctx, 'give either a rate or a number of requests over the duration, not both'));
export type OpenLoad = z.output<typeof OpenLoad>;

export const StepLoad = z.discriminatedUnion('model', [ClosedLoad, OpenLoad], { error: 'model must be closed or open' });
export type StepLoad = z.output<typeof StepLoad>;

export const LoadProfile = z
  .object({
    target: Target,
    request: RequestSpec,
    load: StepLoad,
    /**
     * A sweep: each value replaces the load's varying quantity for one step — connections in the
     * closed model, the rate (or request count for "N over T") in the open one. Empty: one step.
     */
    sweep: z.array(z.number({ error: 'must be a number' }).gt(0, 'must be greater than 0')).max(20, 'must have at most 20 steps').default([]),
    /** Load before the first step, not counted in any result. */
    warmupS: z.number({ error: 'must be a number' }).min(0, 'must not be negative').max(3600, 'must be at most 3600 s').default(0),
    pauseS: z.number({ error: 'must be a number' }).min(0, 'must not be negative').max(3600, 'must be at most 3600 s').default(0),
    /** Latency band boundaries of the summary table, ascending, in ms (the Gatling seed's 800/1200 by default). */
    bucketsMs: z
      .array(z.number({ error: 'must be a number' }).gt(0, 'must be greater than 0').max(60_000, 'must be at most 60000 ms'))
      .max(5, 'must have at most 5 boundaries')
      .refine((list) => list.every((value, i) => i === 0 || value > list[i - 1]!), 'must be in ascending order')
      .default([...DEFAULT_BUCKETS_MS]),
    /** A CPU profile of the server process per step (absent: on, when the host has its runtime's tool; docs/profiles.md); false switches it off. */
    profileServer: z.boolean({ error: 'must be true or false' }).optional(),
    /** Cut a step with a fixed request count after this long. */
    countStepCapS: seconds(MAX_STEP_SECONDS).default(DEFAULT_COUNT_STEP_CAP_S),
  })
  .strict()
  .superRefine((profile, ctx) => {
    const timeoutProblem = describeTimeoutProblem(profile.request, profile.load);
    if (timeoutProblem) ctx.addIssue({ code: 'custom', path: ['request', 'onTimeout'], message: timeoutProblem });
    profile.sweep.forEach((value, index) => {
      const problem = describeSweepValue(profile.load, value);
      if (problem) ctx.addIssue({ code: 'custom', path: ['sweep', index], message: problem });
    });
  });
export type LoadProfile = z.output<typeof LoadProfile>;
export type LoadProfileInput = z.input<typeof LoadProfile>;

function describeSweepValue(load: StepLoad, value: number): string | null {
  const checked = StepLoad.safeParse(applySweepValue(load, value));
  return checked.success ? null : (checked.error.issues[0]?.message ?? 'is not valid here');
}

/** The load with one sweep value in place of its varying quantity. */
export function applySweepValue(load: StepLoad, value: number): StepLoad {
  if (load.model === 'closed') return { ...load, connections: value };
  return load.requests !== undefined ? { ...load, requests: value } : { ...load, rate: value };
}

export interface LoadStep {
  /** 0-based position in the sweep. */
  index: number;
  label: string;
  load: StepLoad;
  /** The agent stops this step by itself after this long, whatever happens. */
  capS: number;
}

export function describeLoad(load: StepLoad): string {
  if (load.model === 'closed') {
    const amount = load.requests !== undefined ? `${load.requests} requests` : `${load.durationS} s`;
    return `c=${load.connections}${load.pipelining > 1 ? ` p=${load.pipelining}` : ''}, ${amount}${load.thinkTime ? `, ${describeThinkTime(load.thinkTime)}` : ''}`;
  }
  const pool = load.connections !== undefined ? `, up to ${load.connections} connections` : '';
  return load.requests !== undefined ? `${load.requests} requests over ${load.durationS} s${pool}` : `${load.rate} req/s for ${load.durationS} s${pool}`;
}

/** The request's full address: target and path, with exactly one slash between them. */
export function requestUrl(target: string, path: string): string {
  return `${target.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A profile in words, for tables and reports: request, load, sweep, warm-up and pause; no field names. */
export function describeProfile(profile: Pick<LoadProfile, 'request' | 'load' | 'sweep' | 'warmupS' | 'pauseS'> & { target?: string | undefined }): string {
  const { request, load } = profile;
  const parts = [`${request.method} ${profile.target ? requestUrl(profile.target, request.path) : request.path}`];
  if (profile.sweep.length > 0) {
    const varying = load.model === 'closed' ? 'connections' : load.requests !== undefined ? 'requests' : 'requests/s';
    const each =
      load.model === 'closed'
        ? `${load.requests !== undefined ? `${load.requests} requests each` : `${load.durationS} s each`}${load.thinkTime ? `, ${describeThinkTime(load.thinkTime)}` : ''}`
        : `${load.durationS} s each${load.connections !== undefined ? `, up to ${load.connections} connections` : ''}`;
    parts.push(`${load.model} model, ${profile.sweep.join(' → ')} ${varying}, ${each}`);
  } else {
    parts.push(`${load.model} model, ${describeLoad(load)}`);
  }
  // Its timeouts are late answers, not requests given up: said wherever the profile is.
  if (request.onTimeout === 'wait') parts.push(`an answer after ${request.timeoutMs} ms is a timeout, its connection waits for it`);
  if (profile.warmupS > 0) parts.push(`warm-up ${profile.warmupS} s`);
  if (profile.pauseS > 0 && profile.sweep.length > 1) parts.push(`pause ${profile.pauseS} s`);
  return parts.join(' · ');
}

/** The target requests per second of an open-model load; null for the closed model. */
export function targetRate(load: StepLoad): number | null {
  if (load.model === 'closed') return null;
  return load.requests !== undefined ? load.requests / load.durationS : (load.rate ?? null);
}

/** The open model's default connection maximum: enough for every request of `timeoutMs` to be in flight at once. */
export function defaultOpenConnections(rate: number, timeoutMs: number): number {
  return Math.min(MAX_CONNECTIONS, Math.max(1, Math.ceil((rate * timeoutMs) / 1000)));
}

/**
 * Little's law for a profile that asks for a rate over a connection maximum: N connections carry R
 * requests/s only while each answer takes under N / R s. Said before the load starts, so a "700
 * req/s over 15 connections" study is not mistaken for a measurement of the server.
 */
export function describeOpenCapacity(load: StepLoad): string | null {
  if (load.model !== 'open' || load.connections === undefined) return null;
  const rate = targetRate(load)!;
  const budgetMs = (load.connections / rate) * 1000;
  if (budgetMs >= 1000) return null;
  const shown = budgetMs >= 10 ? Math.round(budgetMs) : Number(budgetMs.toFixed(1));
  return `${plural(load.connections, 'connection')} carry ${rate} requests/s only while each answer takes under ${shown} ms; slower answers leave requests not sent. Leave the maximum empty to open as many as the rate needs.`;
}

/** Seconds of load a step plans (null when it ends by request count). */
export function plannedSeconds(load: StepLoad): number | null {
  return load.durationS ?? null;
}

export function expandSteps(profile: LoadProfile): LoadStep[] {
  const loads = profile.sweep.length > 0 ? profile.sweep.map((value) => applySweepValue(profile.load, value)) : [profile.load];
  // Grace beyond the planned time: the last requests may take up to the request timeout.
  const graceS = Math.ceil(profile.request.timeoutMs / 1000) + 5;
  return loads.map((load, index) => {
    const planned = plannedSeconds(load);
    const work = planned === null ? profile.countStepCapS : planned + graceS;
    return { index, label: describeLoad(load), load, capS: Math.ceil(work + (index === 0 ? profile.warmupS : 0)) };
  });
}

/** Upper bound of the whole session in seconds: every step's cap plus the pauses between them. */
export function sessionCapSeconds(profile: LoadProfile): number {
  const steps = expandSteps(profile);
  return steps.reduce((total, step) => total + step.capS, 0) + profile.pauseS * Math.max(0, steps.length - 1);
}

/** Field → first message, for a form (`load.connections` → 'must be at least 1'). */
export function profileFieldErrors(input: unknown): Record<string, string> {
  const parsed = LoadProfile.safeParse(input);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.') || 'profile';
    errors[field] ??= issue.message;
  }
  return errors;
}
