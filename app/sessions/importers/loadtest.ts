// loadtest's text output (the npm package), as its releases print it: the settings ("Target URL",
// "Max requests" or "Max time (s)", "Concurrency level" or "Concurrent clients", target "Requests
// per second"), then "Completed requests", "Total errors", "Total time", "Mean latency", the
// effective rate ("Effective rps", or a second "Requests per second" in older releases), the
// percentile table in whole ms, and the errors by code ("   -1:   200 errors"). The progress lines
// it prints while running ("Requests: 7683, requests per second: 400, …") are passed over.
// Summary only. An error code of 100–599 is an answer of that status; any other (-1) is counted as
// failed without telling whether it got an answer: loadtest 8 counts 5xx answers under -1 too.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, readCount, readNonNegative } from './import-numbers.ts';
import { percentilesAt, printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';

const MAX_LINES = 100_000;

export const LOADTEST_RATE_LABEL = "loadtest's effective rps (rounded as printed)";

export function createLoadtestParser(): FormatParser {
  let lines = 0;
  const fields = new Map<string, string>();
  let rates: string[] = [];
  const percentiles = new Map<number, number>();
  const errorCodes = new Map<number, number>();
  let inResults = false;
  return {
    line(text, number) {
      if (++lines > MAX_LINES) throw new ImportError(number, `more than ${MAX_LINES} lines: this is no loadtest output`);
      const trimmed = text.trim();
      let match: RegExpExecArray | null;
      if (trimmed === '' || /^Requests: \d+/.test(trimmed) || /^Errors: \d+, accumulated/.test(trimmed)) return;
      if ((match = /^(\d+)%\s+(\d+(?:\.\d+)?) ms(?: \(longest request\))?$/.exec(trimmed))) {
        percentiles.set(readCount(match[1], number, 'percentile'), checkLatencyUs(readNonNegative(match[2], number, `${match[1]}% latency`) * 1000, number, `${match[1]}% latency`));
      } else if ((match = /^(-?\d+):\s+(\d+) errors$/.exec(trimmed))) {
        errorCodes.set(Number(match[1]), (errorCodes.get(Number(match[1])) ?? 0) + readCount(match[2], number, `errors of code ${match[1]}`));
      } else if ((match = /^([A-Za-z][A-Za-z ()]*?):\s+(\S.*)$/.exec(trimmed))) {
        const name = match[1]!.trim();
        if (name === 'Completed requests') inResults = true;
        if (name === 'Requests per second') rates = [...rates, match[2]!.trim()];
        // The settings block repeats a name or two in the results (older releases print the rate twice).
        if (!fields.has(name) || inResults) fields.set(name, match[2]!.trim());
      }
    },
    finish(): ImportedResult {
      const need = (name: string) => {
        const value = fields.get(name);
        if (value === undefined) throw new ImportError(null, `the file has no "${name}:" line: it is truncated or no loadtest output`);
        return value;
      };
      const completed = readCount(need('Completed requests'), null, 'completed requests');
      const totalErrors = readCount(need('Total errors'), null, 'total errors');
      const seconds = readNonNegative(/^(\S+) s$/.exec(need('Total time'))?.[1], null, 'total time');
      const meanMs = fields.get('Mean latency') === undefined ? null : readNonNegative(/^(\S+) ms$/.exec(fields.get('Mean latency')!)?.[1], null, 'mean latency');
      const effective = fields.get('Effective rps') ?? (rates.length > 1 ? rates.at(-1) : undefined);
      let answeredErrors = 0;
      const status: Record<string, number> = {};
      for (const [code, count] of errorCodes) {
        if (code < 100 || code > 599) continue;
        answeredErrors += count;
        status[`${Math.floor(code / 100)}xx`] = (status[`${Math.floor(code / 100)}xx`] ?? 0) + count;
      }
      const unanswered = Math.max(0, totalErrors - answeredErrors);
      const answered = completed - unanswered;
      status['2xx'] = answered - answeredErrors;
      const at = (p: number) => percentiles.get(p) ?? null;
      const absent: ImportedResult['absent'] = { ...summaryOnlyAbsent('loadtest'), stddev: 'loadtest prints no standard deviation', timeouts: 'loadtest counts errors by code only' };
      if (at(75) === null) absent.p75 = 'loadtest prints 50, 90, 95, 99 and 100 %';
      const concurrency = fields.get('Concurrency level') ?? fields.get('Concurrent clients');
      const connections = concurrency === undefined ? null : readCount(concurrency, null, 'concurrency');
      const maxRequests = fields.get('Max requests');
      const maxTime = fields.get('Max time (s)');
      const target = fields.get('Target URL');
      return printedResult({
        format: 'loadtest',
        source: "loadtest's text output",
        resolution: 'whole milliseconds, as loadtest prints its percentiles (the mean to 0.1 ms)',
        tool: { ...(target ? { target } : {}) },
        missing: [
          'no per-second series, no histogram: loadtest prints totals only',
          ...(unanswered > 0 ? [`${unanswered} errors of code ${[...errorCodes.keys()].filter((code) => code < 100 || code > 599).join(', ')} counted as failed without an answer: loadtest does not say whether they got one (loadtest 8 counts 5xx answers as -1 too)`] : []),
        ],
        absent,
        ...(effective !== undefined ? { toolFigures: { [LOADTEST_RATE_LABEL]: readNonNegative(effective, null, 'effective rps') } } : {}),
        load: connections ? { connections, ...(maxRequests !== undefined ? { requests: readCount(maxRequests, null, 'max requests') } : maxTime !== undefined ? { durationS: readNonNegative(maxTime, null, 'max time') } : {}) } : null,
        summary: printedSummary({
          seconds,
          requests: answered,
          meanUs: meanMs === null ? null : checkLatencyUs(meanMs * 1000, null, 'mean latency'),
          ...percentilesAt(at),
          maxUs: at(100),
          errors: { other: unanswered },
          status,
          non2xx: answeredErrors,
        }),
      });
    },
  };
}
