// k6's results, either form: the `--summary-export` JSON (summary only: http_req_duration's trend
// stats as configured — avg, med, p(90), p(95), max by default, p(99) only if asked for — the
// request count and rate, http_req_failed, data received, the test's duration), or the `--out json`
// NDJSON, one line per metric sample: every http_req_duration point is one request (stamped when
// it ended; status "0" with an error_code when it got no answer), data_received points add bytes.
// k6 writes times as milliseconds with fractions.

import { IMPORT_FIGURES, ImportError, parserByFirstLine, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, jsonNumber, parseIsoTimeMs, toNanosecond } from './import-numbers.ts';
import { isObject, JsonDocument, objectAt } from './json-document.ts';
import { printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
import { RequestSeries } from './request-series.ts';
import type { ErrorKind } from '../../runs/run-summary-schema.ts';

export function createK6Parser(): FormatParser {
  return parserByFirstLine((first) => (/^\{\s*"type"\s*:\s*"(Metric|Point)"/.test(first) ? createK6NdjsonParser() : createK6SummaryParser()));
}

/** A metric of the summary: the legacy export writes its stats flat, handleSummary's data under `values`. */
function metric(metrics: Record<string, unknown>, name: string): Record<string, unknown> | null {
  const found = metrics[name];
  if (!isObject(found)) return null;
  return isObject(found.values) ? found.values : found;
}

function optionalMs(stats: Record<string, unknown>, key: string): number | null {
  if (stats[key] === undefined) return null;
  return checkLatencyUs(toNanosecond(jsonNumber(stats[key], null, `http_req_duration ${key}`) * 1000), null, `http_req_duration ${key}`);
}

function createK6SummaryParser(): FormatParser {
  const document = new JsonDocument();
  return {
    line(text, number) {
      document.add(text, number);
    },
    finish(): ImportedResult {
      const root = document.parse("k6's summary export");
      const metrics = objectAt(root, 'metrics', 'the summary');
      const duration = metric(metrics, 'http_req_duration');
      const reqs = metric(metrics, 'http_reqs');
      if (!duration || !reqs) throw new ImportError(null, "the summary has no http_req_duration or http_reqs metric: it is no k6 summary of HTTP requests");
      const requests = jsonNumber(reqs.count, null, 'http_reqs count');
      const failedMetric = metric(metrics, 'http_req_failed');
      const received = metric(metrics, 'data_received');
      const state = isObject(root.state) ? root.state : {};
      const durationMs = state.testRunDurationMs === undefined ? null : jsonNumber(state.testRunDurationMs, null, 'state.testRunDurationMs');
      const rate = jsonNumber(reqs.rate, null, 'http_reqs rate');
      const seconds = durationMs !== null ? durationMs / 1000 : rate > 0 ? requests / rate : 0;
      // A Rate metric's "passes" are its true values: for http_req_failed, the failed requests.
      const failed = failedMetric?.passes === undefined ? null : jsonNumber(failedMetric.passes, null, 'http_req_failed passes');
      const absent: ImportedResult['absent'] = { ...summaryOnlyAbsent('k6'), stddev: "k6's summary has no standard deviation", timeouts: "k6's summary does not split failures by kind" };
      const notInStats = (stat: string) => `not in k6's summaryTrendStats (add ${stat} to --summary-trend-stats)`;
      const p50Us = optionalMs(duration, 'med') ?? optionalMs(duration, 'p(50)');
      const figures = { p50Us, p75Us: optionalMs(duration, 'p(75)'), p90Us: optionalMs(duration, 'p(90)'), p99Us: optionalMs(duration, 'p(99)') };
      if (figures.p50Us === null) absent.p50 = notInStats('med');
      if (figures.p75Us === null) absent.p75 = notInStats('p(75)');
      if (figures.p90Us === null) absent.p90 = notInStats('p(90)');
      if (figures.p99Us === null) absent.p99 = notInStats('p(99)');
      if (failed === null) absent.failed = 'the summary has no http_req_failed metric';
      const meanUs = optionalMs(duration, 'avg');
      const maxUs = optionalMs(duration, 'max');
      if (meanUs === null) absent.mean = notInStats('avg');
      if (maxUs === null) absent.max = notInStats('max');
      const dropped = metric(metrics, 'dropped_iterations');
      const missing = ['no per-second series: the summary holds totals only (k6 --out json has them)', 'no histogram: percentiles as k6 summarised them'];
      if (dropped && typeof dropped.count === 'number' && dropped.count > 0) missing.push(`k6 dropped ${dropped.count} iterations (iterations, not requests: not counted as not sent)`);
      return printedResult({
        format: 'k6',
        source: "k6's --summary-export JSON",
        resolution: 'k6 milliseconds with fractions (to the microsecond or better)',
        tool: {},
        missing,
        absent: Object.fromEntries(Object.entries(absent).filter(([key]) => (IMPORT_FIGURES as readonly string[]).includes(key))),
        summary: printedSummary({
          seconds,
          requests,
          bytes: received?.count === undefined ? 0 : jsonNumber(received.count, null, 'data_received count'),
          requestsPerSecond: rate,
          bytesPerSecond: received?.rate === undefined ? null : jsonNumber(received.rate, null, 'data_received rate'),
          meanUs,
          ...figures,
          p999Us: optionalMs(duration, 'p(99.9)'),
          maxUs,
          failed: failed ?? 0,
        }),
      });
    },
  };
}

/** k6's error codes (the error_code tag) as Benchlab's error kinds. */
function errorKindOf(code: unknown): ErrorKind {
  switch (String(code)) {
    case '1050': // request timeout
    case '1211': // dial timeout
      return 'timeout';
    case '1212':
      return 'refused';
    case '1220':
      return 'reset';
    default:
      return 'other';
  }
}

function createK6NdjsonParser(): FormatParser {
  const series = new RequestSeries({ failuresListed: true });
  let target: string | undefined;
  let pendingBytes = 0;
  return {
    line(text, number) {
      if (text.trim() === '') return;
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch {
        throw new ImportError(number, 'the line is not valid JSON: truncated or no k6 --out json file');
      }
      if (!isObject(entry) || (entry.type !== 'Metric' && entry.type !== 'Point')) throw new ImportError(number, 'a k6 --out json line has "type": "Metric" or "Point"');
      if (entry.type !== 'Point') return;
      const data = entry.data;
      if (!isObject(data)) throw new ImportError(number, 'the point has no data');
      if (entry.metric === 'data_received') {
        // Bytes are counted per iteration, not per request: they go into the second they were stamped in.
        const bytes = jsonNumber(data.value, number, 'data_received value');
        if (bytes < 0) throw new ImportError(number, 'data_received must not be negative');
        if (series.count === 0) pendingBytes += bytes;
        else series.addBytes(parseIsoTimeMs(data.time, number, 'time'), bytes, number);
        return;
      }
      if (entry.metric !== 'http_req_duration') return;
      const endMs = parseIsoTimeMs(data.time, number, 'time');
      const latencyUs = checkLatencyUs(toNanosecond(jsonNumber(data.value, number, 'value') * 1000), number, 'value');
      const tags = isObject(data.tags) ? data.tags : {};
      const status = Number(tags.status ?? Number.NaN);
      if (!Number.isInteger(status) || status < 0) throw new ImportError(number, `the point's status tag is no HTTP status: ${JSON.stringify(tags.status)}`);
      target ??= typeof tags.url === 'string' ? tags.url : undefined;
      series.add({ startMs: endMs - latencyUs / 1000, latencyUs, outcome: status === 0 ? { error: errorKindOf(tags.error_code) } : { status }, bytes: pendingBytes }, number);
      pendingBytes = 0;
    },
    finish(): ImportedResult {
      if (series.count === 0) throw new ImportError(null, 'the file has no http_req_duration points: no HTTP requests were recorded');
      return series.result(
        {
          format: 'k6',
          source: "k6's --out json NDJSON",
          resolution: 'k6 milliseconds with fractions (to the microsecond or better)',
          tool: { ...(target ? { target } : {}) },
          missing: [],
          absent: {},
        },
        { dated: true },
      );
    },
  };
}
