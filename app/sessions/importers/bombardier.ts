// bombardier's JSON result (`-o json -p r`, with `-l` for its latency percentiles): the spec (its
// connections, request count or duration, URL) and the result — answers by status class, `others`
// (requests without an answer, by the errors listed), bytes read, the time taken, latency mean,
// standard deviation, max and percentiles in µs. Summary only. bombardier's rps figures are the
// mean and spread of its per-tick rates, not answers over the run: Benchlab's requests/s is the
// answers over the time taken, bombardier's mean kept beside it, labelled.

import { type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, jsonNumber } from './import-numbers.ts';
import { isObject, jsonCount, jsonObjectParser, objectAt } from './json-document.ts';
import { errorKindOfMessage } from './error-kind.ts';
import { printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
import type { ErrorKind } from '../../runs/run-summary-schema.ts';

export const BOMBARDIER_RATE_LABEL = "bombardier's rps mean (the mean of its per-tick rates)";

export function createBombardierParser(): FormatParser {
  return jsonObjectParser("bombardier's result is one JSON object (run it with -o json -p r)", "bombardier's JSON result", (root) => {
    const spec = isObject(root.spec) ? root.spec : {};
    const result = objectAt(root, 'result', 'the output');
    const latency = objectAt(result, 'latency', 'result');
    const us = (value: unknown, field: string) => (value === undefined ? null : checkLatencyUs(jsonNumber(value, null, field), null, field));
    const percentiles = isObject(latency.percentiles) ? latency.percentiles : {};
    const status: Record<string, number> = {};
    for (const kind of ['1xx', '2xx', '3xx', '4xx', '5xx']) status[kind] = jsonCount(result[`req${kind}`], `result.req${kind}`);
    const answered = Object.values(status).reduce((sum, n) => sum + n, 0);
    const others = jsonCount(result.others, 'result.others');
    const errors: Partial<Record<ErrorKind, number>> = {};
    let listed = 0;
    for (const entry of Array.isArray(result.errors) ? result.errors : []) {
      if (!isObject(entry)) continue;
      const n = jsonCount(entry.count, 'result.errors[].count');
      const kind = errorKindOfMessage(String(entry.description ?? ''));
      errors[kind] = (errors[kind] ?? 0) + n;
      listed += n;
    }
    if (others > listed) errors.other = (errors.other ?? 0) + others - listed;
    const seconds = jsonNumber(result.timeTakenSeconds, null, 'result.timeTakenSeconds');
    const rps = isObject(result.rps) && result.rps.mean !== undefined ? jsonNumber(result.rps.mean, null, 'result.rps.mean') : null;
    const connections = spec.numberOfConnections === undefined ? null : jsonCount(spec.numberOfConnections, 'spec.numberOfConnections');
    const requests = spec.testType === 'number-of-requests' && spec.numberOfRequests !== undefined ? jsonCount(spec.numberOfRequests, 'spec.numberOfRequests') : undefined;
    const durationS = spec.testType === 'timed' && spec.testDurationSeconds !== undefined ? jsonNumber(spec.testDurationSeconds, null, 'spec.testDurationSeconds') : undefined;
    const hasPercentiles = Object.keys(percentiles).length > 0;
    const absent: ImportedResult['absent'] = { ...summaryOnlyAbsent('bombardier') };
    if (!hasPercentiles) Object.assign(absent, Object.fromEntries(['p50', 'p75', 'p90', 'p99'].map((key) => [key, 'bombardier prints percentiles only with -l'])));
    return printedResult({
      format: 'bombardier',
      source: "bombardier's JSON result",
      resolution: 'bombardier microseconds',
      tool: { ...(typeof spec.url === 'string' ? { target: spec.url } : {}) },
      missing: ['no per-second series: bombardier prints totals only', 'no histogram: percentiles as bombardier printed them', ...(others > 0 ? [`${others} requests without an answer, by bombardier's error messages`] : [])],
      absent,
      ...(rps === null ? {} : { toolFigures: { [BOMBARDIER_RATE_LABEL]: rps } }),
      load: connections ? { connections, ...(requests !== undefined ? { requests } : durationS !== undefined ? { durationS } : {}) } : null,
      summary: printedSummary({
        seconds,
        requests: answered,
        bytes: jsonCount(result.bytesRead, 'result.bytesRead'),
        meanUs: us(latency.mean, 'latency.mean'),
        stdDevUs: us(latency.stddev, 'latency.stddev'),
        p50Us: us(percentiles['50'], 'latency.percentiles["50"]'),
        p75Us: us(percentiles['75'], 'latency.percentiles["75"]'),
        p90Us: us(percentiles['90'], 'latency.percentiles["90"]'),
        p99Us: us(percentiles['99'], 'latency.percentiles["99"]'),
        maxUs: us(latency.max, 'latency.max'),
        errors,
        status,
        non2xx: answered - status['2xx']!,
      }),
    });
  });
}
