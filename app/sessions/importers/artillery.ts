// Artillery 2's JSON report (`artillery run --output report.json`): its aggregate's counters (HTTP
// requests and responses, codes by status, errors by code such as errors.ECONNRESET), its
// http.response_time summary in ms (min, max, mean, p50, p75, p90, p99, p999) and the times of its
// first and last metric. Summary only. Artillery stamps its counters by reporting period (10 s), so
// the run's length, and the requests/s drawn from it, is the span from the first metric to the
// last one of those periods: near the end it can be a few seconds long.

import { ImportError, type FormatParser } from './imported-result.ts';
import { checkLatencyUs, jsonNumber, toNanosecond } from './import-numbers.ts';
import { isObject, jsonObjectParser, objectAt } from './json-document.ts';
import { printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
import type { ErrorKind } from '../../runs/run-summary-schema.ts';

function errorKindOfCode(code: string): ErrorKind {
  if (/TIMEDOUT|timeout/i.test(code)) return 'timeout';
  if (/REFUSED/i.test(code)) return 'refused';
  if (/RESET/i.test(code)) return 'reset';
  if (/EPIPE|SOCKET|closed/i.test(code)) return 'closed';
  return 'other';
}

export function createArtilleryParser(): FormatParser {
  return jsonObjectParser("Artillery's report is one JSON object (artillery run --output report.json)", "Artillery's JSON report", (root) => {
    const aggregate = objectAt(root, 'aggregate', 'the report');
    const counters = objectAt(aggregate, 'counters', 'aggregate');
    const summaries = objectAt(aggregate, 'summaries', 'aggregate');
    const times = summaries['http.response_time'];
    if (!isObject(times)) throw new ImportError(null, 'the report has no http.response_time summary: no HTTP responses were recorded');
    const count = (key: string) => {
      const value = jsonNumber(counters[key] ?? 0, null, `counters["${key}"]`);
      if (!Number.isSafeInteger(value) || value < 0) throw new ImportError(null, `counters["${key}"] is not a count`);
      return value;
    };
    const status: Record<string, number> = {};
    const errors: Partial<Record<ErrorKind, number>> = {};
    for (const key of Object.keys(counters)) {
      const code = /^http\.codes\.(\d{3})$/.exec(key)?.[1];
      if (code) status[`${code[0]}xx`] = (status[`${code[0]}xx`] ?? 0) + count(key);
      const error = /^errors\.(.+)$/.exec(key)?.[1];
      if (error) errors[errorKindOfCode(error)] = (errors[errorKindOfCode(error)] ?? 0) + count(key);
    }
    const answered = count('http.responses');
    const firstMs = jsonNumber(aggregate.firstMetricAt, null, 'aggregate.firstMetricAt');
    const lastMs = jsonNumber(aggregate.lastMetricAt, null, 'aggregate.lastMetricAt');
    const seconds = Math.max(0, lastMs - firstMs) / 1000;
    const ms = (key: string) => (times[key] === undefined ? null : checkLatencyUs(toNanosecond(jsonNumber(times[key], null, `http.response_time.${key}`) * 1000), null, `http.response_time.${key}`));
    return printedResult({
      format: 'artillery',
      source: "Artillery's JSON report",
      resolution: 'Artillery milliseconds to one decimal',
      tool: {},
      missing: ['no per-second series, no histogram: the aggregate of the report only', "the run's length from Artillery's first metric to the last, stamped by its 10 s reporting periods: requests/s is approximate"],
      absent: { ...summaryOnlyAbsent('Artillery'), stddev: "Artillery's report has no standard deviation" },
      startedAt: new Date(firstMs).toISOString(),
      endedAt: new Date(lastMs).toISOString(),
      summary: printedSummary({
        seconds,
        requests: answered,
        bytes: count('http.downloaded_bytes'),
        meanUs: ms('mean'),
        p50Us: ms('p50'),
        p75Us: ms('p75'),
        p90Us: ms('p90'),
        p99Us: ms('p99'),
        p999Us: ms('p999'),
        maxUs: ms('max'),
        errors,
        status,
        non2xx: answered - (status['2xx'] ?? 0),
      }),
    });
  });
}
