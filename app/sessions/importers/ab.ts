// ab's output, either form: the text report (summary only: complete and failed requests by kind,
// non-2xx answers, bytes, requests/s, the "Total" connection-times row for mean and standard
// deviation, the percentile table; all in whole ms as ab prints them) or the `-g` TSV, one line per
// answered request (its start to the second and its total time in ms), which gives real
// per-second rows and a histogram but neither statuses nor failed requests.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { readCount, readNonNegative, checkLatencyUs } from './import-numbers.ts';
import { printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
import { RequestSeries } from './request-series.ts';

const MAX_TEXT_LINES = 10_000;
const TSV_HEADER = 'starttime\tseconds\tctime\tdtime\tttime\twait';

export function createAbParser(): FormatParser {
  let inner: FormatParser | null = null;
  return {
    line(text, number) {
      if (!inner) {
        if (text.trim() === '') return;
        if (text.trimEnd() === TSV_HEADER) {
          inner = createAbTsvParser();
          return;
        }
        if (!/^This is ApacheBench, Version \S+/.test(text.trim())) throw new ImportError(number, `ab's text output starts with "This is ApacheBench, Version …" and its -g file with the header "${TSV_HEADER.replaceAll('\t', ' ')}"`);
        inner = createAbTextParser();
      }
      inner.line(text, number);
    },
    finish() {
      if (!inner) throw new ImportError(null, 'the file is empty');
      return inner.finish();
    },
  };
}

function createAbTextParser(): FormatParser {
  let lines = 0;
  const fields = new Map<string, string>();
  const percentiles = new Map<number, number>();
  let total: { meanUs: number; stdDevUs: number } | null = null;
  let failedKinds = { connect: 0, receive: 0, length: 0, exceptions: 0 };
  let version = '';
  return {
    line(text, number) {
      if (++lines > MAX_TEXT_LINES) throw new ImportError(number, `more than ${MAX_TEXT_LINES} lines: this is no ab text output`);
      const trimmed = text.trim();
      let match: RegExpExecArray | null;
      if ((match = /^This is ApacheBench, Version (\S+)/.exec(trimmed))) version = match[1]!;
      else if ((match = /^\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)$/.exec(trimmed))) {
        failedKinds = { connect: readCount(match[1], number, 'connect failures'), receive: readCount(match[2], number, 'receive failures'), length: readCount(match[3], number, 'length failures'), exceptions: readCount(match[4], number, 'exceptions') };
      } else if ((match = /^Total:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$/.exec(trimmed))) {
        total = { meanUs: readNonNegative(match[2], number, 'total mean') * 1000, stdDevUs: readNonNegative(match[3], number, 'total sd') * 1000 };
      } else if ((match = /^(\d+)%\s+(\d+)(?: \(longest request\))?$/.exec(trimmed))) {
        percentiles.set(readCount(match[1], number, 'percentile'), checkLatencyUs(readNonNegative(match[2], number, `${match[1]}% time`) * 1000, number, `${match[1]}% time`));
      } else if ((match = /^([A-Za-z][A-Za-z0-9 /-]*):\s*(.*)$/.exec(trimmed))) fields.set(match[1]!, match[2]!);
    },

    finish(): ImportedResult {
      const field = (name: string) => fields.get(name);
      const need = (name: string) => {
        const value = field(name);
        if (value === undefined) throw new ImportError(null, `the file has no "${name}:" line: it is truncated or no ab output`);
        return value;
      };
      const complete = readCount(need('Complete requests'), null, 'complete requests');
      const seconds = readNonNegative(/^(\S+) seconds$/.exec(need('Time taken for tests'))?.[1], null, 'time taken');
      const requestsPerSecond = readNonNegative(/^(\S+) \[#\/sec\] \(mean\)$/.exec(need('Requests per second'))?.[1], null, 'requests per second');
      if (!total) throw new ImportError(null, 'the file has no "Total:" connection-times line: it is truncated');
      const bytes = readCount(/^(\d+) bytes$/.exec(field('Total transferred') ?? '0 bytes')?.[1], null, 'total transferred');
      const non2xx = field('Non-2xx responses') === undefined ? 0 : readCount(field('Non-2xx responses'), null, 'non-2xx responses');
      const host = field('Server Hostname');
      const port = field('Server Port');
      const path = field('Document Path');
      const connections = field('Concurrency Level') === undefined ? undefined : readCount(field('Concurrency Level'), null, 'concurrency level');
      const scheme = field('SSL/TLS Protocol') === undefined ? 'http' : 'https';
      const at = (percentile: number) => percentiles.get(percentile) ?? null;
      const absent: ImportedResult['absent'] = { ...summaryOnlyAbsent('ab') };
      const missing = ['no per-second series: ab prints totals only (its -g file has them)', 'no histogram: percentiles as ab printed them, in whole ms', 'no p99.9'];
      if (percentiles.size === 0) {
        const reason = 'ab printed no percentile table';
        Object.assign(absent, { p50: reason, p75: reason, p90: reason, p99: reason });
      }
      if (failedKinds.length > 0) missing.push(`ab's ${failedKinds.length} length failures are answers here (of another length than the first)`);
      return {
        format: 'ab',
        kind: 'summary',
        source: "ab's text output",
        resolution: 'whole milliseconds, as ab prints them',
        tool: { version, ...(host && port && path ? { target: `${scheme}://${host}:${port}${path}` } : {}) },
        missing,
        absent,
        startedAt: null,
        endedAt: null,
        load: connections !== undefined && connections > 0 ? { connections, requests: complete } : null,
        summary: printedSummary({
          seconds,
          requests: complete,
          bytes,
          requestsPerSecond,
          bytesPerSecond: null,
          meanUs: total.meanUs,
          stdDevUs: total.stdDevUs,
          p50Us: at(50),
          p75Us: at(75),
          p90Us: at(90),
          p99Us: at(99),
          p999Us: null,
          maxUs: at(100),
          errors: { refused: failedKinds.connect, reset: failedKinds.receive, other: failedKinds.exceptions },
          status: { '2xx': complete - Math.min(non2xx, complete) },
          non2xx,
        }),
      };
    },
  };
}

function createAbTsvParser(): FormatParser {
  const series = new RequestSeries({ failuresListed: false, wholeSeconds: true });
  return {
    line(text, number) {
      if (text.trim() === '') return;
      const fields = text.split('\t');
      if (fields.length !== 6) throw new ImportError(number, `ab's -g lines have 6 tab-separated fields, this one has ${fields.length}: truncated?`);
      const startS = readCount(fields[1], number, 'seconds');
      const totalMs = readNonNegative(fields[4], number, 'ttime');
      series.add({ startMs: startS * 1000, latencyUs: checkLatencyUs(totalMs * 1000, number, 'ttime'), outcome: { status: null }, bytes: 0 }, number);
    },
    finish(): ImportedResult {
      if (series.count === 0) throw new ImportError(null, "ab's -g file lists no requests");
      const reason = "ab's -g file lists answered requests only, without their status";
      return series.result(
        {
          format: 'ab',
          source: "ab's -g TSV",
          resolution: 'whole milliseconds, start times to the second, as ab writes them',
          tool: {},
          missing: [reason, 'no sizes: bytes are not in the file', 'start times to the whole second: requests/s is over whole seconds'],
          absent: { failed: reason, timeouts: reason, notSent: reason },
        },
        { dated: true },
      );
    },
  };
}
