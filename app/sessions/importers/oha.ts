// oha's results, in either of its machine formats, told apart by the first line:
// - `--output-format csv` (1.x): one line per answered request, in order of start — its start in
//   seconds from the run's start, its DNS and connect times (zero on a reused connection), its time to
//   the first body byte, its duration, body bytes and status. It lists every answer (non-2xx too) and
//   no failed request, and has no clock time: the import has real histograms and seconds, no books,
//   no date, and says so. Its connect times are not stored (Benchlab's phases need all three).
// - `--output-format json` (`--json` before 1.x): summary only (its response-time histogram has a
//   handful of coarse buckets, no per-request data). Latencies are seconds: average, slowest and the latency
// percentiles; the answers by status code and the errors by message. Requests cut off by the end
// of a -z run ("aborted due to deadline") were in flight, not failed: oha itself leaves them out
// of its success rate, and so does this import. oha's requestsPerSec divides every request it
// made (answered, refused, timed out, cut off) by the run's time; Benchlab's requests/s counts
// answers, so it is the answers over that time, and oha's own figure is kept beside it, labelled.

import { ImportError, parserByFirstLine, type FormatParser } from './imported-result.ts';
import { checkLatencyUs, jsonNumber, readCount, readNonNegative, toNanosecond } from './import-numbers.ts';
import { column, headedCsv } from './csv-line.ts';
import { answeredOnlyCsvParser, RequestSeries } from './request-series.ts';
import { isObject, jsonObjectParser, objectAt } from './json-document.ts';
import { printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
import { errorKindOfMessage } from './error-kind.ts';
import type { ErrorKind } from '../../runs/run-summary-schema.ts';

function secondsToUs(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  return checkLatencyUs(toNanosecond(jsonNumber(value, null, field) * 1_000_000), null, field);
}


function counts(value: unknown, path: string): Array<[string, number]> {
  if (value === undefined) return [];
  if (!isObject(value)) throw new ImportError(null, `${path} is not an object`);
  return Object.entries(value).map(([key, count]) => {
    const number = jsonNumber(count, null, `${path}["${key}"]`);
    if (!Number.isSafeInteger(number) || number < 0) throw new ImportError(null, `${path}["${key}"] is not a count`);
    return [key, number];
  });
}

/** oha's own requestsPerSec, as kept beside Benchlab's answers per second. */
export const OHA_RATE_LABEL = "oha's requestsPerSec (every request made, answered or not, per second)";

const CSV_HEADER = 'request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status';
const CSV_REQUIRED = ['request-start', 'request-duration', 'bytes', 'status'];

/** oha's output: its CSV when the first line is the CSV's header, else its JSON. */
export function createOhaParser(): FormatParser {
  return parserByFirstLine((first) => (first.startsWith('request-start,') ? createOhaCsvParser() : createOhaJsonParser()));
}

function createOhaCsvParser(): FormatParser {
  const series = new RequestSeries({ failuresListed: false });
  const csv = headedCsv({ required: CSV_REQUIRED, what: `oha's CSV ("${CSV_HEADER}")` }, (fields, columns, number) => {
    const seconds = (name: string) => readNonNegative(column(fields, columns, name, number), number, name);
    const latencyUs = checkLatencyUs(toNanosecond(seconds('request-duration') * 1_000_000), number, 'request-duration');
    const status = readCount(column(fields, columns, 'status', number), number, 'status');
    series.add({ startMs: seconds('request-start') * 1000, latencyUs, outcome: { status }, bytes: readCount(column(fields, columns, 'bytes', number), number, 'bytes') }, number);
  });
  const about = { format: 'oha', what: "oha's CSV", source: "oha's CSV (--output-format csv)", resolution: 'oha seconds with fractions (to the nanosecond)', unanswered: 'requests without an answer (refused, reset, timed out)' } as const;
  return answeredOnlyCsvParser(csv, series, about, () => ["connect and first-byte times are in the file but not stored: Benchlab's request phases need the whole request's"]);
}

function createOhaJsonParser(): FormatParser {
  return jsonObjectParser(`oha's output is one JSON object (--output-format json), or its CSV starting "${CSV_HEADER}"`, "oha's JSON output", (root) => {
    const summary = objectAt(root, 'summary', 'the output');
    const percentiles = isObject(root.latencyPercentiles) ? root.latencyPercentiles : {};
    const statuses = counts(root.statusCodeDistribution, 'statusCodeDistribution');
    const status: Record<string, number> = {};
    for (const [code, count] of statuses) {
      const value = Number(code);
      if (!Number.isInteger(value) || value < 100 || value > 599) throw new ImportError(null, `statusCodeDistribution has "${code}", no HTTP status`);
      const kind = `${Math.floor(value / 100)}xx`;
      status[kind] = (status[kind] ?? 0) + count;
    }
    const errors: Partial<Record<ErrorKind, number>> = {};
    let cutOff = 0;
    for (const [message, count] of counts(root.errorDistribution, 'errorDistribution')) {
      if (message.toLowerCase().includes('deadline')) cutOff += count;
      else errors[errorKindOfMessage(message)] = (errors[errorKindOfMessage(message)] ?? 0) + count;
    }
    const answered = statuses.reduce((sum, [, count]) => sum + count, 0);
    const seconds = jsonNumber(summary.total, null, 'summary.total');
    const missing = ['no per-second series: oha --json holds totals only', 'no histogram: percentiles as oha printed them'];
    if (cutOff > 0) missing.push(`${cutOff} requests were cut off by the end of the run (oha's deadline): in flight, not failed`);
    const meanUs = secondsToUs(summary.average, 'summary.average');
    const ohaRate = summary.requestsPerSec === undefined || summary.requestsPerSec === null ? null : jsonNumber(summary.requestsPerSec, null, 'summary.requestsPerSec');
    return printedResult({
      format: 'oha',
      source: "oha's JSON output",
      resolution: 'oha seconds with fractions (to the nanosecond)',
      tool: {},
      missing,
      ...(ohaRate === null ? {} : { toolFigures: { [OHA_RATE_LABEL]: ohaRate } }),
      absent: { ...summaryOnlyAbsent('oha'), stddev: "oha's JSON has no standard deviation" },
      summary: printedSummary({
        seconds,
        requests: answered,
        bytes: summary.totalData === undefined ? 0 : jsonNumber(summary.totalData, null, 'summary.totalData'),
        bytesPerSecond: summary.sizePerSec === undefined || summary.sizePerSec === null ? null : jsonNumber(summary.sizePerSec, null, 'summary.sizePerSec'),
        meanUs,
        p50Us: secondsToUs(percentiles.p50, 'latencyPercentiles.p50'),
        p75Us: secondsToUs(percentiles.p75, 'latencyPercentiles.p75'),
        p90Us: secondsToUs(percentiles.p90, 'latencyPercentiles.p90'),
        p99Us: secondsToUs(percentiles.p99, 'latencyPercentiles.p99'),
        p999Us: secondsToUs(percentiles['p99.9'], 'latencyPercentiles["p99.9"]'),
        maxUs: secondsToUs(summary.slowest, 'summary.slowest'),
        errors,
        status,
        non2xx: answered - (status['2xx'] ?? 0),
      }),
    });
  });
}
