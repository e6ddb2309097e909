// autocannon's JSON result (`-j`): its URL, connections, duration, start and finish times, the
// answers by status class, errors and timeouts, and its latency statistics in ms (mean, stddev,
// max and percentiles from its own HDR histogram at 1 ms). Summary only. Its requests figures
// (mean, stddev, percentiles) are of per-second samples: Benchlab's requests/s is the answers
// (requests.total) over the duration, autocannon's mean kept beside it, labelled. Requests sent but
// neither answered nor counted as an error (a socket the server closed) are said, not guessed at.

import type { FormatParser } from './imported-result.ts';
import { checkLatencyUs, jsonNumber, parseIsoTimeMs, toNanosecond } from './import-numbers.ts';
import { isObject, jsonCount, jsonObjectParser, objectAt } from './json-document.ts';
import { printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';

export const AUTOCANNON_RATE_LABEL = "autocannon's requests.mean (the mean of its per-second samples)";

export function createAutocannonParser(): FormatParser {
  return jsonObjectParser("autocannon's result is one JSON object (run it with -j)", "autocannon's JSON result", (root) => {
    const latency = objectAt(root, 'latency', 'the result');
    const requests = objectAt(root, 'requests', 'the result');
    const ms = (value: unknown, field: string) => (value === undefined ? null : checkLatencyUs(toNanosecond(jsonNumber(value, null, field) * 1000), null, field));
    const status: Record<string, number> = {};
    for (const kind of ['1xx', '2xx', '3xx', '4xx', '5xx']) status[kind] = jsonCount(root[kind], kind);
    const answered = jsonCount(requests.total, 'requests.total');
    const sent = requests.sent === undefined ? null : jsonCount(requests.sent, 'requests.sent');
    const timeouts = jsonCount(root.timeouts, 'timeouts');
    const errors = jsonCount(root.errors, 'errors');
    const seconds = jsonNumber(root.duration, null, 'duration');
    const unaccounted = sent === null ? 0 : sent - answered - errors;
    const missing = ['no per-second series: autocannon -j prints totals only', 'no histogram: percentiles as autocannon printed them, in its 1 ms steps'];
    if (unaccounted > 0) missing.push(`${unaccounted} requests sent were neither answered nor counted as errors by autocannon (sockets closed, or in flight at the end): not counted here`);
    const connections = root.connections === undefined ? null : jsonCount(root.connections, 'connections');
    const startMs = typeof root.start === 'string' ? parseIsoTimeMs(root.start, null, 'start') : null;
    const finishMs = typeof root.finish === 'string' ? parseIsoTimeMs(root.finish, null, 'finish') : null;
    const rate = requests.mean === undefined ? null : jsonNumber(requests.mean, null, 'requests.mean');
    return printedResult({
      format: 'autocannon',
      source: "autocannon's JSON result",
      resolution: 'autocannon milliseconds (its histogram counts whole ms)',
      tool: { ...(typeof root.url === 'string' ? { target: root.url } : {}) },
      missing,
      absent: { ...summaryOnlyAbsent('autocannon') },
      ...(rate === null ? {} : { toolFigures: { [AUTOCANNON_RATE_LABEL]: rate } }),
      startedAt: startMs === null ? null : new Date(startMs).toISOString(),
      endedAt: finishMs === null ? null : new Date(finishMs).toISOString(),
      load: connections ? { connections, durationS: seconds } : null,
      summary: printedSummary({
        seconds,
        requests: answered,
        bytes: isObject(root.throughput) && root.throughput.total !== undefined ? jsonCount(root.throughput.total, 'throughput.total') : 0,
        meanUs: ms(latency.mean, 'latency.mean'),
        stdDevUs: ms(latency.stddev, 'latency.stddev'),
        p50Us: ms(latency.p50, 'latency.p50'),
        p75Us: ms(latency.p75, 'latency.p75'),
        p90Us: ms(latency.p90, 'latency.p90'),
        p99Us: ms(latency.p99, 'latency.p99'),
        p999Us: ms(latency.p99_9, 'latency.p99_9'),
        maxUs: ms(latency.max, 'latency.max'),
        errors: { timeout: timeouts, other: Math.max(0, errors - timeouts) },
        status,
        non2xx: answered - status['2xx']!,
      }),
    });
  });
}
