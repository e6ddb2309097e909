// Gatling's results, two ways. Its `simulation.log` as Gatling 3.0–3.11 writes it (tab-separated
// records: a RUN line with the simulation and Gatling's version, USER and GROUP lines, and a REQUEST
// line per request: groups, name, start and end in epoch ms, OK or KO, the failure's message) is
// per request: an OK is a 2xx–3xx answer; a KO whose message says "found NNN" is an answer of that
// status; a KO saying timeout, refused, reset or a premature close got no answer; any other KO (a
// failed check on an answer) is failed as `other`. Gatling 3.12 and later write a binary log, refused
// with what to import instead. Or the console's "Global Information" block, as Gatling prints it at
// the end of a run (the form its users publish): summary only, whole ms, with Gatling's own response
// time distribution kept, labelled.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, readCount, readNonNegative } from './import-numbers.ts';
import { errorKindOfMessage } from './error-kind.ts';
import { percentilesAt, printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
import { RequestSeries, type ImportedRequest } from './request-series.ts';

const MAX_SUMMARY_LINES = 1_000_000;

export const GATLING_RATE_LABEL = "Gatling's mean requests/sec (OK and KO, as printed)";

/** What a KO's message says happened: an answer of a status, or why there was none. */
export function gatlingOutcome(message: string): ImportedRequest['outcome'] {
  const found = /\bfound (\d{3})\s*$/.exec(message);
  if (found) return { status: Number(found[1]) };
  const text = message.toLowerCase();
  if (text.includes('premature close')) return { error: 'closed' };
  return { error: errorKindOfMessage(message) };
}

interface LogState {
  series: RequestSeries;
  version: string | null;
  simulation: string | null;
  checksFailed: number;
}

function logLine(state: LogState, text: string, number: number): void {
  const fields = text.split('\t');
  const record = fields[0];
  if (record === 'RUN') {
    state.simulation = fields[1] ?? null;
    state.version = fields[5]?.trim() || null;
    if (state.version && !/^3\./.test(state.version)) throw new ImportError(number, `this simulation.log is Gatling ${state.version}'s: its records are read from Gatling 3.0 to 3.11; import the console's "Global Information" block instead`);
    return;
  }
  if (record !== 'REQUEST') return;
  if (fields.length < 6) throw new ImportError(number, `a REQUEST record has at least 6 tab-separated fields, this line ${fields.length}: truncated?`);
  const startMs = readCount(fields[3], number, 'request start');
  const endMs = readCount(fields[4], number, 'request end');
  if (endMs < startMs) throw new ImportError(number, 'the request ends before it starts');
  const status = fields[5]!.trim();
  if (status !== 'OK' && status !== 'KO') throw new ImportError(number, `a request's status is OK or KO, not ${JSON.stringify(status.slice(0, 20))}`);
  let outcome: ImportedRequest['outcome'] = { status: null };
  if (status === 'KO') {
    outcome = gatlingOutcome(fields[6] ?? '');
    if ('error' in outcome && outcome.error === 'other') state.checksFailed++;
  }
  state.series.add({ startMs, latencyUs: checkLatencyUs((endMs - startMs) * 1000, number, 'response time'), outcome, bytes: 0 }, number);
}

/** `> name   1234 (OK=1200   KO=34    )` of the Global Information block: the figure of all requests. */
const FIGURE = /^>\s+(.+?)\s{2,}(\d+(?:\.\d+)?|-)\s*(?:\(OK=\s*(\S+)\s+KO=\s*(\S+)\s*\))?\s*$/;
const BAND = /^>\s+(.+?)\s{2,}(\d+)\s+\(\s*\d+%\)\s*$/;

export function createGatlingParser(): FormatParser {
  let form: 'log' | 'console' | null = null;
  const log: LogState = { series: new RequestSeries({ failuresListed: true }), version: null, simulation: null, checksFailed: 0 };
  let lines = 0;
  let inBlock = false;
  let figures = new Map<string, { all: string; ok?: string | undefined; ko?: string | undefined }>();
  let bands = new Map<string, number>();
  return {
    line(text, number) {
      if (text.trim() === '') return;
      if (form === null) {
        // eslint-disable-next-line no-control-regex -- a binary log's first bytes are control characters
        if (/[\u0000-\u0008\u000e-\u001f]/.test(text.slice(0, 64))) throw new ImportError(number, "this is a binary simulation.log (Gatling 3.12 or later): import the console's \"Global Information\" block of the run instead");
        form = text.startsWith('RUN\t') || text.startsWith('REQUEST\t') || text.startsWith('USER\t') ? 'log' : 'console';
      }
      if (form === 'log') return logLine(log, text, number);
      if (++lines > MAX_SUMMARY_LINES) throw new ImportError(number, `more than ${MAX_SUMMARY_LINES} lines: this is no Gatling console output`);
      const trimmed = text.trim();
      if (/^-+ Global Information -+$/.test(trimmed)) {
        // The last block printed is the run's (a console may hold several runs).
        inBlock = true;
        figures = new Map();
        bands = new Map();
        return;
      }
      if (!inBlock) return;
      if (/^-+ Errors -+$/.test(trimmed) || /^=+$/.test(trimmed)) {
        inBlock = false;
        return;
      }
      let match = BAND.exec(trimmed);
      if (match) {
        bands.set(match[1]!.trim(), readCount(match[2], number, match[1]!.trim()));
        return;
      }
      match = FIGURE.exec(trimmed);
      if (match) figures.set(match[1]!.trim(), { all: match[2]!, ok: match[3], ko: match[4] });
    },
    finish(): ImportedResult {
      if (form === 'log') {
        if (log.series.count === 0) throw new ImportError(null, 'the simulation.log has no REQUEST records: the run sent nothing, or the file is cut short');
        return log.series.result(
          {
            format: 'gatling',
            source: "Gatling's simulation.log",
            resolution: 'whole milliseconds, as Gatling stamps a request\'s start and end',
            tool: { ...(log.version ? { version: log.version } : {}), ...(log.simulation ? { command: log.simulation } : {}) },
            missing: [
              'no sizes: the log has no bytes',
              'an OK does not carry its status: it is counted as an answer of unknown status (Gatling\'s default check passes 2xx and 304)',
              ...(log.checksFailed > 0 ? [`${log.checksFailed} KO without a status or a network error (a failed check on an answer, or an error Gatling names in its own words) counted as failed (other)`] : []),
            ],
            absent: {},
          },
          { dated: true },
        );
      }
      const count = figures.get('request count');
      if (!count) throw new ImportError(null, 'the file has no "---- Global Information ----" block with its "> request count" line: it is no Gatling console output, or it was cut before the end of the run');
      const figure = (name: string): number | null => {
        const value = figures.get(name)?.all;
        return value === undefined || value === '-' ? null : readNonNegative(value, null, name);
      };
      const ms = (name: string) => {
        const value = figure(name);
        return value === null ? null : checkLatencyUs(value * 1000, null, name);
      };
      const total = readCount(count.all, null, 'request count');
      const ko = count.ko === undefined ? 0 : readCount(count.ko, null, 'request count KO');
      const rate = figure('mean requests/sec');
      const seconds = rate !== null && rate > 0 ? total / rate : 0;
      const answered = total - ko;
      const toolFigures: Record<string, number> = {};
      if (rate !== null) toolFigures[GATLING_RATE_LABEL] = rate;
      for (const [band, value] of bands) toolFigures[`Gatling's response time distribution: ${band}`] = value;
      const percentile = (p: number) => ms(`response time ${p}th percentile`);
      return printedResult({
        format: 'gatling',
        source: "Gatling's console summary (Global Information)",
        resolution: 'whole milliseconds, as Gatling prints them',
        tool: {},
        missing: [
          'no per-second series, no histogram: the console block holds totals only',
          `the run's length is ${total} requests ÷ Gatling's mean requests/sec, rounded as printed`,
          ...(ko > 0 ? [`${ko} KO counted as failed without an answer: the block does not say which got an answer (its Errors lines name them)`] : []),
        ],
        absent: { ...summaryOnlyAbsent('Gatling'), timeouts: 'the block counts KO only', ...(percentile(90) === null ? { p90: 'Gatling printed other percentiles' } : {}) },
        toolFigures,
        summary: printedSummary({
          seconds,
          requests: answered,
          meanUs: ms('mean response time'),
          stdDevUs: ms('std deviation'),
          ...percentilesAt(percentile),
          maxUs: ms('max response time'),
          errors: { other: ko },
        }),
      });
    },
  };
}
