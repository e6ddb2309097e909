// Compare's layout for sessions that sent different requests (a plan's named requests, or one path
// per session): a row per endpoint (and sweep step, when there are several), a column per server,
// each cell the requests/s, p99, the server's peak memory (RSS) and its GC (the share of the time in
// pauses, the highest heap after a GC: a JVM's from its GC log, a Node server's from its monitor,
// in the runtime line's words) of the runs there — a study's endpoints side by
// side as its seed tabulated them, with what each endpoint costs the server's memory. Repeats of one cell give their median. Pure:
// built from the comparison Compare, the PDF and the CLI already have.

import { median } from '../common/median.ts';
import { LoadProfile } from '../runs/load-profile.ts';
import { gcWords } from '../runs/server-runtime.ts';
import type { Comparison, CompareRow } from './comparison.ts';
import { isCompleted } from './configuration-key.ts';

/** The request a session sent: the plan's name for it (null when unnamed), method and path. */
export interface SessionRequest {
  name: string | null;
  method: string;
  path: string;
}

/** The request a session's config records, or null when it records none readable (imports, older profiles). */
export function sessionRequestOf(config: Record<string, unknown>): SessionRequest | null {
  const profile = LoadProfile.safeParse(config.profile);
  if (!profile.success) return null;
  const name = typeof config.requestName === 'string' && config.requestName.trim() !== '' ? config.requestName : null;
  return { name, method: profile.data.request.method, path: profile.data.request.path };
}

/** What makes two sessions' requests one endpoint: the plan's name when it gave one, else method and path. */
export function endpointKey(request: SessionRequest): string {
  return request.name ?? `${request.method} ${request.path}`;
}

export interface EndpointCell {
  /** The sessions whose runs make this cell (indexes into comparison.sessions). */
  sessions: number[];
  /** Completed runs the figures are the median of. */
  runs: number;
  rps: number | null;
  p99Us: number | null;
  /** The server's peak RSS over the run (median of the runs'); null when not read. */
  rssMaxBytes: number | null;
  /** The server's share of the run's time in GC pauses (0..1) and its highest heap after a GC (medians); null: its GC was not read. */
  gcShare: number | null;
  heapAfterGcMaxBytes: number | null;
  /** Highest requests/s, lowest p99 of the row. */
  bestRps: boolean;
  bestP99: boolean;
}

export interface EndpointRow {
  endpoint: string;
  /** `GET /fib?n=30`: what the endpoint's sessions sent. */
  request: string;
  /** The sweep step, when the sessions have several; null with one. */
  step: string | null;
  /** One per server, in `servers` order; null where that server did not run this endpoint (step). */
  cells: Array<EndpointCell | null>;
}

export interface EndpointTable {
  /** Each server (template, variant and knobs, engine, hosts: everything but the request), labelled. */
  servers: Array<{ key: string; label: string }>;
  rows: EndpointRow[];
  memory: boolean;
  /** Some cell has GC figures (a JVM's GC log or a Node server's monitor was read). */
  gc: boolean;
}

/** A session's server: its set-ups and hosts, not its request. */
function serverKey(session: Comparison['sessions'][number]): string {
  return JSON.stringify([session.setups ?? session.templates, session.engine ?? null, session.clientHost, session.serverHost]);
}

function serverLabel(session: Comparison['sessions'][number], knobsNeeded: boolean): string {
  const templates = session.templates.join(' + ') || session.name;
  const knobs = [...new Set((session.setups ?? []).map((setup) => setup.knobs))].join('; ');
  return knobsNeeded && knobs ? `${templates} · ${knobs}` : templates;
}

/**
 * The per-endpoint table, or null when the compared sessions all sent one request (or some
 * recorded none): then the per-step tables say it all.
 */
export function buildEndpointTable(comparison: Comparison): EndpointTable | null {
  const requests = comparison.sessions.map((session) => session.request ?? null);
  if (requests.some((request) => request === null)) return null;
  const endpoints = [...new Set(requests.map((request) => endpointKey(request!)))];
  if (endpoints.length < 2) return null;

  const keys = comparison.sessions.map(serverKey);
  const serverKeys = [...new Set(keys)];
  const firstOf = (key: string) => comparison.sessions[keys.indexOf(key)]!;
  const templatesOf = (key: string) => firstOf(key).templates.join(' + ');
  const servers = serverKeys.map((key) => ({
    key,
    label: serverLabel(firstOf(key), serverKeys.some((other) => other !== key && templatesOf(other) === templatesOf(key))),
  }));

  const stepLabels = [...new Set(comparison.steps.map((step) => step.label))];
  const stepped = stepLabels.length > 1 && comparison.sessions.some((_, index) => comparison.steps.filter((step) => step.rows.some((row) => row.session === index)).length > 1);
  const column = (key: string) => comparison.columns.findIndex((candidate) => candidate.key === key);
  const [rpsAt, p99At, rssAt] = [column('rps'), column('p99'), column('rssMax')];

  const rows: EndpointRow[] = [];
  for (const endpoint of endpoints) {
    const members = requests.flatMap((request, index) => (endpointKey(request!) === endpoint ? [index] : []));
    const sent = requests[members[0]!]!;
    const steps = stepped ? stepLabels.filter((label) => comparison.steps.some((step) => step.label === label && step.rows.some((row) => members.includes(row.session)))) : [null];
    for (const label of steps) {
      const found = comparison.steps
        .filter((step) => label === null || step.label === label)
        .flatMap((step) => step.rows.filter((row) => members.includes(row.session)));
      const cells = serverKeys.map((key): EndpointCell | null => {
        const here = found.filter((row) => keys[row.session] === key);
        if (here.length === 0) return null;
        const done = here.filter((row) => isCompleted(row.status) && isCompleted(comparison.sessions[row.session]!.status));
        const pick = (read: (row: CompareRow) => number | null | undefined) => {
          const values = (done.length > 0 ? done : here).map((row) => read(row) ?? null).filter((value): value is number => value !== null);
          return values.length > 0 ? median(values) : null;
        };
        const valueAt = (at: number) => pick((row) => (at < 0 ? null : row.values[at]));
        return {
          sessions: [...new Set(here.map((row) => row.session))],
          runs: done.length,
          rps: valueAt(rpsAt),
          p99Us: valueAt(p99At),
          rssMaxBytes: valueAt(rssAt),
          gcShare: pick((row) => row.serverRuntimeFigures?.gcPauseShare),
          heapAfterGcMaxBytes: pick((row) => row.serverRuntimeFigures?.heapAfterGcMaxBytes),
          bestRps: false,
          bestP99: false,
        };
      });
      markRowBest(cells);
      rows.push({ endpoint, request: `${sent.method} ${sent.path}`, step: label, cells });
    }
  }
  const anyCell = (has: (cell: EndpointCell) => boolean) => rows.some((row) => row.cells.some((cell) => cell !== null && has(cell)));
  return { servers, rows, memory: anyCell((cell) => cell.rssMaxBytes !== null), gc: anyCell((cell) => cell.gcShare !== null || cell.heapAfterGcMaxBytes !== null) };
}

/** A cell's GC in the runtime line's words, "GC 2.1 % of the time, heap after GC up to 38 MB"; "GC —" when its GC was not read. */
export function endpointGcText(cell: Pick<EndpointCell, 'gcShare' | 'heapAfterGcMaxBytes'>): string {
  return gcWords({ share: cell.gcShare, heapAfterGcMaxBytes: cell.heapAfterGcMaxBytes });
}

/** Per row: the highest requests/s and the lowest p99 among servers with completed runs (a lone value marks nothing). */
function markRowBest(cells: Array<EndpointCell | null>): void {
  const counted = cells.filter((cell): cell is EndpointCell => cell !== null && cell.runs > 0);
  const mark = (read: (cell: EndpointCell) => number | null, better: 'higher' | 'lower', set: (cell: EndpointCell) => void) => {
    const values = counted.map(read).filter((value): value is number => value !== null);
    if (values.length < 2) return;
    const best = better === 'higher' ? Math.max(...values) : Math.min(...values);
    if (values.every((value) => value === best)) return;
    for (const cell of counted) if (read(cell) === best) set(cell);
  };
  mark((cell) => cell.rps, 'higher', (cell) => (cell.bestRps = true));
  mark((cell) => cell.p99Us, 'lower', (cell) => (cell.bestP99 = true));
}
