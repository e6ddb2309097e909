// oha's `--json` output: summary only (its response-time histogram has a handful of coarse
// buckets, no per-request data). Latencies are seconds: average, slowest and the latency
// percentiles; the answers by status code and the errors by message. Requests cut off by the end
// of a -z run ("aborted due to deadline") were in flight, not failed: oha itself leaves them out
// of its success rate, and so does this import. oha's requestsPerSec divides every request it
// made (answered, refused, timed out, cut off) by the run's time; Benchlab's requests/s counts
// answers, so it is the answers over that time, and oha's own figure is kept beside it, labelled.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, jsonNumber, toNanosecond } from './import-numbers.ts';
import { isObject, JsonDocument, objectAt } from './json-document.ts';
import { printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
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

export function createOhaParser(): FormatParser {
  const document = new JsonDocument();
  return {
    line(text, number) {
      if (document.empty && text.trim() !== '' && !text.trim().startsWith('{')) throw new ImportError(number, "oha's JSON output is one JSON object (--output-format json)");
      document.add(text, number);
    },
    finish(): ImportedResult {
      const root = document.parse("oha's JSON output");
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
      return {
        format: 'oha',
        kind: 'summary',
        source: "oha's JSON output",
        resolution: 'oha seconds with fractions (to the nanosecond)',
        tool: {},
        missing,
        ...(ohaRate === null ? {} : { toolFigures: { [OHA_RATE_LABEL]: ohaRate } }),
        absent: { ...summaryOnlyAbsent('oha'), stddev: "oha's JSON has no standard deviation" },
        startedAt: null,
        endedAt: null,
        load: null,
        summary: printedSummary({
          seconds,
          requests: answered,
          bytes: summary.totalData === undefined ? 0 : jsonNumber(summary.totalData, null, 'summary.totalData'),
          requestsPerSecond: seconds > 0 ? answered / seconds : 0,
          bytesPerSecond: summary.sizePerSec === undefined || summary.sizePerSec === null ? null : jsonNumber(summary.sizePerSec, null, 'summary.sizePerSec'),
          meanUs,
          stdDevUs: null,
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
      };
    },
  };
}
