// The one contract between the UI and the back end: every request (args schema → result schema)
// and every event (payload schema). Electron IPC, the web-mode WebSocket and the CLI derive from it.
// Each capability owns its part (app/<capability>/<capability>-contract.ts); this module composes
// them and adds the app-wide pieces: `app.info`, log lines, and the helpers every transport uses.

import { z } from 'zod';
import { NoArgs, request } from './common/contract-kit.ts';
import type { ApiErrorShape } from './common/errors.ts';
import { LogLine, logRequests } from './common/log-contract.ts';
import { draftRequests } from './drafts/drafts-contract.ts';
import { hostEvents, hostRequests } from './hosts/hosts-contract.ts';
import { planEvents, planRequests } from './plans/plans-contract.ts';
import { presetEvents, presetRequests } from './presets/presets-contract.ts';
import { profileEvents, profileRequests } from './profiles/profiles-contract.ts';
import { runEvents, runRequests } from './runs/runs-contract.ts';
import { sessionEvents, sessionRequests } from './sessions/sessions-contract.ts';
import { templateEvents, templateRequests } from './templates/templates-contract.ts';
import { terminalEvents, terminalRequests } from './terminals/terminals-contract.ts';
import { describeZodError } from './common/zod-issues.ts';

export const TRANSPORTS = ['electron', 'web', 'cli'] as const;
export type TransportKind = (typeof TRANSPORTS)[number];

export const AppInfo = z.object({
  version: z.string(),
  dataDir: z.string(),
  databaseFile: z.string(),
  transport: z.enum(TRANSPORTS),
  platform: z.string(),
  /** Things the user must be told at start, such as a corrupt data file that was set aside. */
  notices: z.array(z.string()),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** The app-wide requests; every other request belongs to a capability's own map. */
export const appRequests = {
  'app.info': request(NoArgs, AppInfo),
} as const;

export const requests = {
  ...appRequests,
  ...logRequests,
  ...hostRequests,
  ...terminalRequests,
  ...sessionRequests,
  ...presetRequests,
  ...templateRequests,
  ...runRequests,
  ...planRequests,
  ...profileRequests,
  ...draftRequests,
} as const;

export { LOG_LEVELS, LogLine } from './common/log-contract.ts';

export const events = {
  log: LogLine,
  ...hostEvents,
  ...terminalEvents,
  ...sessionEvents,
  ...presetEvents,
  ...templateEvents,
  ...runEvents,
  ...planEvents,
  ...profileEvents,
} as const;

export type RequestName = keyof typeof requests;
export type EventName = keyof typeof events;
export type RequestArgs<N extends RequestName> = z.input<(typeof requests)[N]['args']>;
export type ParsedArgs<N extends RequestName> = z.output<(typeof requests)[N]['args']>;
export type RequestResult<N extends RequestName> = z.output<(typeof requests)[N]['result']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const REQUEST_NAMES = Object.keys(requests) as RequestName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(requests, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

type Namespace<N extends string> = N extends `${infer Head}.${string}` ? Head : never;
type MethodsOf<NS extends string> = {
  [N in RequestName as N extends `${NS}.${infer Method}` ? Method : never]: {} extends RequestArgs<N>
    ? (args?: RequestArgs<N>) => Promise<RequestResult<N>>
    : (args: RequestArgs<N>) => Promise<RequestResult<N>>;
};

/** The object the renderer sees as `window.benchlab`, whatever the transport. */
export type BenchlabApi = { [NS in Namespace<RequestName>]: MethodsOf<NS> } & {
  readonly transport: TransportKind;
  subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** What every transport needs to implement to produce a BenchlabApi. */
export interface TransportCall {
  call(name: RequestName, args: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

/** Builds `window.benchlab` (one function per request, grouped by namespace) over a transport. */
export function buildApi(transport: TransportKind, channel: TransportCall): BenchlabApi {
  const api: Record<string, unknown> = {
    transport,
    subscribe: (event: EventName, listener: (payload: unknown) => void) => channel.subscribe(event, listener),
  };
  for (const name of REQUEST_NAMES) {
    const [namespace, method] = name.split('.') as [string, string];
    const group = (api[namespace] ??= {}) as Record<string, unknown>;
    group[method] = (args?: unknown) => channel.call(name, args ?? {});
  }
  return api as BenchlabApi;
}

/** Validates the arguments of a named request. Pure: the back end calls it before any handler. */
export function parseArgs<N extends RequestName>(
  name: N,
  args: unknown,
): { ok: true; args: ParsedArgs<N> } | { ok: false; error: ApiErrorShape } {
  const result = requests[name].args.safeParse(args ?? {});
  if (result.success) return { ok: true, args: result.data as ParsedArgs<N> };
  return { ok: false, error: { code: 'invalid_args', message: describeZodError(result.error) } };
}
