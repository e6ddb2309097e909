// The one contract between the UI and the back end: every request (args schema → result schema)
// and every event (payload schema). Electron IPC, the web-mode WebSocket and the CLI derive from it.

import { z } from 'zod';
import { NoArgs, request } from './common/contract-kit.ts';
import type { ApiErrorShape } from './common/errors.ts';
import { ConnectSecrets, Fingerprint, HostConnection } from './hosts/connections.ts';
import { Host, HostId, HostInput } from './hosts/hosts.ts';
import { Reachability, SystemInfo } from './hosts/system-info.ts';
import { TerminalData, TerminalExit, TerminalId, TerminalSize } from './terminals/terminal.ts';
import { SshConfigCandidate } from './hosts/ssh-config.ts';
import { Session, SessionId, SessionName, SessionSummary } from './sessions/sessions.ts';
import { presetEvents, presetRequests } from './presets/presets-contract.ts';
import { templateEvents, templateRequests } from './templates/templates-contract.ts';
import { runEvents, runRequests } from './runs/runs-contract.ts';
import { compareRequests } from './sessions/compare-contract.ts';
import { planEvents, planRequests } from './plans/plans-contract.ts';


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

export const requests = {
  'app.info': request(NoArgs, AppInfo),
  'hosts.list': request(NoArgs, z.array(Host)),
  'hosts.add': request(HostInput, Host),
  'hosts.update': request(z.object({ id: HostId, host: HostInput }).strict(), Host),
  'hosts.remove': request(z.object({ id: HostId }).strict(), z.object({ removed: z.boolean() })),
  'hosts.addLocal': request(NoArgs, Host),
  'hosts.importSshConfig': request(
    z.object({ text: z.string().max(512 * 1024, 'is too long').optional() }).strict(),
    z.object({ source: z.string(), candidates: z.array(SshConfigCandidate), warnings: z.array(z.string()) }),
  ),
  'hosts.connect': request(z.object({ id: HostId, secrets: ConnectSecrets.optional() }).strict(), HostConnection),
  'hosts.disconnect': request(z.object({ id: HostId }).strict(), HostConnection),
  'hosts.connections': request(NoArgs, z.array(HostConnection)),
  /** Pins the key of a host that has none pinned yet (first use). */
  'hosts.trustKey': request(z.object({ id: HostId, fingerprint: Fingerprint }).strict(), Host),
  /** The explicit action for a host whose key changed (reinstalled machine). */
  'hosts.replaceKey': request(z.object({ id: HostId, fingerprint: Fingerprint }).strict(), Host),
  'hosts.systemInfo': request(z.object({ id: HostId, refresh: z.boolean().optional() }).strict(), SystemInfo.nullable()),
  'hosts.reachability': request(z.object({ from: HostId, to: HostId }).strict(), Reachability),
  'terminal.open': request(z.object({ hostId: HostId, size: TerminalSize }).strict(), z.object({ terminalId: z.string() })),
  'terminal.input': request(z.object({ terminalId: TerminalId, data: z.string().max(64 * 1024, 'is too long') }).strict(), z.object({})),
  'terminal.resize': request(z.object({ terminalId: TerminalId, size: TerminalSize }).strict(), z.object({})),
  'terminal.ack': request(z.object({ terminalId: TerminalId, bytes: z.number().int().min(0) }).strict(), z.object({})),
  'terminal.close': request(z.object({ terminalId: TerminalId }).strict(), z.object({})),
  'sessions.list': request(
    z.object({ search: z.string().max(200, 'must be at most 200 characters').optional() }).strict(),
    z.array(SessionSummary),
  ),
  'sessions.get': request(z.object({ id: SessionId }).strict(), Session),
  'sessions.rename': request(z.object({ id: SessionId, name: SessionName }).strict(), Session),
  'sessions.delete': request(z.object({ id: SessionId }).strict(), z.object({ deleted: z.boolean() })),
  ...presetRequests,
  ...templateRequests,
  ...runRequests,
  ...compareRequests,
  ...planRequests,
} as const;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const LogLine = z.object({
  at: z.string(),
  level: z.enum(LOG_LEVELS),
  source: z.string(),
  message: z.string(),
});
export type LogLine = z.infer<typeof LogLine>;

export const events = {
  log: LogLine,
  'hosts.connection': HostConnection,
  'terminal.data': TerminalData,
  'terminal.exit': TerminalExit,
  ...presetEvents,
  ...templateEvents,
  ...runEvents,
  ...planEvents,
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

/** Human message naming the first offending field, e.g. `port: must be between 1 and 65535`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      if (issue.code === 'unrecognized_keys') {
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
      }
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
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
