// wrk's text output: the thread stats' latency mean, standard deviation and max, with `--latency`
// the percentile table (50/75/90/99 %, or wrk2's longer one), the request count, duration and bytes
// read, socket errors, non-2xx-or-3xx answers, requests/s and transfer/s. Summary only: wrk prints
// no per-request data. Times are read exactly as printed ("456.78us", "1.23ms", "1.20s").
// wrk2 (its table headed "HdrHistogram - Recorded Latency") times each request from when its -R
// schedule meant to send it; with -U it prints a second, uncorrected table, which is not read: the
// figures stay the scheduled ones, as Benchlab's open model times them.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { parseDurationUs, parseSizeBytes, readCount, readNonNegative } from './import-numbers.ts';
import { percentilesAt, printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';

const MAX_LINES = 10_000;

const DURATION_S: Record<string, number> = { s: 1, m: 60, h: 3600 };

export function createWrkParser(): FormatParser {
  let started = false;
  let lines = 0;
  let target: string | undefined;
  let durationS: number | undefined;
  let connections: number | undefined;
  let latency: { meanUs: number; stdDevUs: number; maxUs: number } | null = null;
  const percentiles = new Map<number, number>();
  let totals: { requests: number; seconds: number; bytes: number } | null = null;
  let errors = { connect: 0, read: 0, write: 0, timeout: 0 };
  let non2xx = 0;
  let requestsPerSecond: number | null = null;
  let bytesPerSecond: number | null = null;
  /** Which latency table the percentile lines belong to: wrk's own (or wrk2's recorded one), or wrk2's uncorrected one. */
  let table: 'recorded' | 'uncorrected' = 'recorded';
  let wrk2 = false;
  let uncorrectedSkipped = false;

  return {
    line(text, number) {
      if (++lines > MAX_LINES) throw new ImportError(number, `more than ${MAX_LINES} lines: this is no wrk text output`);
      const trimmed = text.trim();
      if (!started) {
        if (trimmed === '') return;
        const header = /^Running (\d+(?:\.\d+)?)([smh]) test @ (\S+)$/.exec(trimmed);
        if (!header) throw new ImportError(number, 'wrk\'s text output starts with "Running … test @ URL"');
        started = true;
        durationS = Number(header[1]) * DURATION_S[header[2]!]!;
        target = header[3];
        return;
      }
      let match: RegExpExecArray | null;
      if ((match = /^(\d+) threads and (\d+) connections$/.exec(trimmed))) connections = readCount(match[2], number, 'connections');
      else if ((match = /^Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+%$/.exec(trimmed))) {
        latency = { meanUs: parseDurationUs(match[1]!, number, 'latency mean'), stdDevUs: parseDurationUs(match[2]!, number, 'latency stdev'), maxUs: parseDurationUs(match[3]!, number, 'latency max') };
      } else if (trimmed.startsWith('Latency Distribution (HdrHistogram - ')) {
        wrk2 = true;
        table = trimmed.includes('Uncorrected') ? 'uncorrected' : 'recorded';
        uncorrectedSkipped ||= table === 'uncorrected';
      } else if ((match = /^(\d+(?:\.\d+)?)%\s+(\S+)$/.exec(trimmed))) {
        if (table === 'recorded') percentiles.set(readNonNegative(match[1], number, 'percentile'), parseDurationUs(match[2]!, number, `${match[1]}% latency`));
      } else if ((match = /^(\d+) requests in (\S+), (\S+) read$/.exec(trimmed))) {
        totals = { requests: readCount(match[1], number, 'requests'), seconds: parseDurationUs(match[2]!, number, 'duration') / 1_000_000, bytes: parseSizeBytes(match[3]!, number, 'bytes read') };
      } else if ((match = /^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$/.exec(trimmed))) {
        errors = { connect: readCount(match[1], number, 'connect errors'), read: readCount(match[2], number, 'read errors'), write: readCount(match[3], number, 'write errors'), timeout: readCount(match[4], number, 'timeouts') };
      } else if ((match = /^Non-2xx or 3xx responses: (\d+)$/.exec(trimmed))) non2xx = readCount(match[1], number, 'non-2xx responses');
      else if ((match = /^Requests\/sec:\s+(\S+)$/.exec(trimmed))) requestsPerSecond = readNonNegative(match[1], number, 'requests/sec');
      else if ((match = /^Transfer\/sec:\s+(\S+)$/.exec(trimmed))) bytesPerSecond = parseSizeBytes(match[1]!, number, 'transfer/sec');
      // Anything else (Req/Sec thread stats, a script's own lines, wrk2's spectrum) is not needed.
    },

    finish(): ImportedResult {
      if (!started) throw new ImportError(null, 'the file is empty');
      if (!latency) throw new ImportError(null, 'the file has no "Latency" thread-stats line: it is truncated or no wrk output');
      if (!totals) throw new ImportError(null, 'the file has no "N requests in T, S read" line: it is truncated');
      if (requestsPerSecond === null) throw new ImportError(null, 'the file ends before wrk\'s "Requests/sec:" line: it is truncated');
      const at = (percentile: number) => percentiles.get(percentile) ?? null;
      const withLatency = percentiles.size > 0;
      const absent: ImportedResult['absent'] = { ...summaryOnlyAbsent('wrk') };
      const missing = ['no per-second series: wrk prints totals only', 'no histogram: percentiles as wrk printed them', 'transfer as wrk printed it (3 significant digits)'];
      if (!withLatency) {
        const reason = 'wrk prints percentiles only with --latency';
        Object.assign(absent, { p50: reason, p75: reason, p90: reason, p99: reason });
        missing.push('no percentiles: run wrk with --latency');
      }
      if (wrk2) missing.push("wrk2's latencies run from each request's scheduled send time at its -R rate (corrected for coordinated omission); its rate is not in the output");
      if (uncorrectedSkipped) missing.push("wrk2's uncorrected table (-U) is not read: the percentiles are its recorded (scheduled-time) ones");
      if (errors.read + errors.write > 0) missing.push("wrk's read and write errors are counted as other errors (wrk does not tell resets from closes)");
      return printedResult({
        format: 'wrk',
        source: wrk2 ? "wrk2's text output with --latency" : withLatency ? "wrk's text output with --latency" : "wrk's text output",
        resolution: "latencies as wrk printed them: three significant digits (10 µs at 1–10 ms)",
        tool: { ...(target ? { target } : {}) },
        missing,
        absent,
        load: connections !== undefined && durationS !== undefined ? { connections, durationS } : null,
        summary: printedSummary({
          seconds: totals.seconds,
          requests: totals.requests,
          bytes: totals.bytes,
          requestsPerSecond,
          bytesPerSecond,
          meanUs: latency.meanUs,
          stdDevUs: latency.stdDevUs,
          ...percentilesAt(at),
          p999Us: at(99.9),
          maxUs: latency.maxUs,
          errors: { refused: errors.connect, other: errors.read + errors.write, timeout: errors.timeout },
          // wrk counts 2xx and 3xx answers together as good ones.
          status: { '2xx': totals.requests - Math.min(non2xx, totals.requests) },
          non2xx,
        }),
      });
    },
  };
}
