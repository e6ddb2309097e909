// ab's output, either form: the text report (summary only: complete and failed requests by kind,
// non-2xx answers, bytes, requests/s, the "Total" connection-times row for mean and standard
// deviation, the percentile table; all in whole ms as ab prints them) or the `-g` TSV, one line per
// completed request (its start to the second and its total time in ms), which gives real
// per-second rows and a histogram but neither statuses nor failed requests. With the text report
// of the same run beside it, the TSV's seconds add up to ab's own elapsed time.
//
// ab counts a socket the server closed without answering as a complete request with a "Length"
// failure (its body, none, differs from the first answer's). The report tells such requests from
// answers of another length when every other answer had the first one's length: then "HTML
// transferred" is exactly (complete − length failures) × "Document Length".
//
// ab's percentile table gives, for p %, the (⌊n·p⌋ + 1)-th fastest time; Benchlab's histograms give
// the ⌈n·p⌉-th, one rank lower whenever n·p is whole.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { readCount, readNonNegative, checkLatencyUs } from './import-numbers.ts';
import { percentilesAt, printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';
import { RequestSeries } from './request-series.ts';

const MAX_TEXT_LINES = 10_000;
const TSV_HEADER = 'starttime\tseconds\tctime\tdtime\tttime\twait';
const AB_RANKS = "ab's percentile table shows the (⌊n·p⌋ + 1)-th fastest time for p %, one rank above Benchlab's ⌈n·p⌉-th";

/** What an ab text report of the same run gives a -g file: its elapsed time and request count. */
export interface AbRun {
  seconds: number;
  requests: number;
}

/** The elapsed time and request count of an ab text report, for its -g file. */
export function abRunOf(report: ImportedResult): AbRun {
  if (report.format !== 'ab' || report.kind !== 'summary') throw new ImportError(null, "the report is no ab text output: give ab's text report of the run that wrote the -g file");
  // Complete requests, closed sockets among them: the -g file has a line for each.
  return { seconds: report.summary.seconds, requests: report.summary.requests + (report.summary.errors.closed ?? 0) };
}

export function createAbParser(options: { run?: AbRun } = {}): FormatParser {
  let inner: FormatParser | null = null;
  return {
    line(text, number) {
      if (!inner) {
        if (text.trim() === '') return;
        if (text.trimEnd() === TSV_HEADER) {
          inner = createAbTsvParser(options.run);
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
      const bodyBytes = field('HTML transferred') === undefined ? null : readCount(/^(\d+) bytes$/.exec(field('HTML transferred')!)?.[1], null, 'HTML transferred');
      const documentLength = field('Document Length') === undefined ? null : readCount(/^(\d+) bytes/.exec(field('Document Length')!)?.[1], null, 'document length');
      const non2xx = field('Non-2xx responses') === undefined ? 0 : readCount(field('Non-2xx responses'), null, 'non-2xx responses');
      const host = field('Server Hostname');
      const port = field('Server Port');
      const path = field('Document Path');
      const connections = field('Concurrency Level') === undefined ? undefined : readCount(field('Concurrency Level'), null, 'concurrency level');
      const scheme = field('SSL/TLS Protocol') === undefined ? 'http' : 'https';
      const at = (percentile: number) => percentiles.get(percentile) ?? null;
      const absent: ImportedResult['absent'] = { ...summaryOnlyAbsent('ab') };
      const missing = ['no per-second series: ab prints totals only (its -g file has them)', `no histogram: percentiles as ab printed them, in whole ms (${AB_RANKS})`, 'no p99.9'];
      if (percentiles.size === 0) {
        const reason = 'ab printed no percentile table';
        Object.assign(absent, { p50: reason, p75: reason, p90: reason, p99: reason });
      }
      const closed = closedOfLengthFailures(failedKinds.length, complete, bodyBytes, documentLength);
      if (closed.note) missing.push(closed.note);
      const answered = complete - closed.count;
      return printedResult({
        format: 'ab',
        source: "ab's text output",
        resolution: 'whole milliseconds, as ab prints them',
        tool: { version, ...(host && port && path ? { target: `${scheme}://${host}:${port}${path}` } : {}) },
        missing,
        absent,
        load: connections !== undefined && connections > 0 ? { connections, requests: complete } : null,
        summary: printedSummary({
          seconds,
          requests: answered,
          bytes,
          requestsPerSecond,
          meanUs: total.meanUs,
          stdDevUs: total.stdDevUs,
          ...percentilesAt(at),
          maxUs: at(100),
          errors: { refused: failedKinds.connect, reset: failedKinds.receive, other: failedKinds.exceptions, closed: closed.count },
          status: { '2xx': answered - Math.min(non2xx, answered) },
          non2xx,
        }),
      });
    },
  };
}

/**
 * How many of ab's length failures were sockets closed without an answer: all of them when the
 * answers' bodies add up to the others' count × the document length (they brought no body), none
 * when ab cannot tell; `note` says which, in words.
 */
function closedOfLengthFailures(lengthFailures: number, complete: number, bodyBytes: number | null, documentLength: number | null): { count: number; note: string | null } {
  if (lengthFailures === 0) return { count: 0, note: null };
  const others = complete - lengthFailures;
  if (bodyBytes !== null && documentLength !== null && documentLength > 0 && others >= 0) {
    if (bodyBytes === others * documentLength) return { count: lengthFailures, note: `ab's ${lengthFailures} length failures brought no body ("HTML transferred" is the other answers' × the document length): sockets closed without an answer, counted as closed` };
    if (bodyBytes > others * documentLength) return { count: 0, note: `ab's ${lengthFailures} length failures brought ${bodyBytes - others * documentLength} bytes of body between them: answers of another length, counted as answers (ab cannot tell whether some among them got no answer)` };
  }
  return { count: 0, note: `ab's ${lengthFailures} length failures are counted as answers: its report cannot tell answers of another length from sockets closed without an answer` };
}

function createAbTsvParser(run: AbRun | undefined): FormatParser {
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
      const reason = "ab's -g file lists completed requests without their status";
      const span = series.spanSeconds;
      const missing = [reason, 'no sizes: bytes are not in the file', "percentiles are Benchlab's, the ⌈n·p⌉-th fastest time for p %; ab's own table shows the (⌊n·p⌋ + 1)-th, one rank higher, so it can read 1 ms more"];
      if (run) {
        if (run.requests !== series.count) throw new ImportError(null, `the report counts ${run.requests} complete requests, the -g file ${series.count}: they are not of the same run`);
        if (run.seconds * 1000 > span * 1000 + 1000 || run.seconds * 1000 < (span - 2) * 1000) throw new ImportError(null, `the report's ${run.seconds} s cannot be the run of a -g file spanning ${span} whole seconds: they are not of the same run`);
        missing.push(
          run.seconds > span
            ? `requests/s is over the ${span} whole seconds the file spans: ab's own elapsed time, ${run.seconds} s, reaches into the next one`
            : `the seconds add up to ab's own elapsed time, ${run.seconds} s (the -g file's start times are whole seconds)`,
        );
      } else {
        // The earliest start lies up to 1 s after its whole second, the last end up to 1 s after
        // its computed one: the run took between span − 2 and span + 1 seconds.
        missing.push(`start times to the whole second: requests/s is over ${span} whole seconds, while the run took between ${Math.max(span - 2, 0)} and ${span + 1} s, so it may be up to ${Math.round(200 / span)} % too low or ${Math.round(100 / span)} % too high; import the -g file with ab's text report of the same run for its own elapsed time`);
      }
      return series.result(
        {
          format: 'ab',
          source: run ? "ab's -g TSV with its text report" : "ab's -g TSV",
          resolution: 'whole milliseconds, start times to the second, as ab writes them',
          tool: {},
          missing,
          absent: { failed: reason, timeouts: reason, notSent: reason },
        },
        { dated: true, ...(run ? { elapsedMs: run.seconds * 1000 } : {}) },
      );
    },
  };
}
