// hey's `-o csv` output: one line per answered request — its response time and phases in seconds
// (four decimals: 0.1 ms), its status code and its offset in seconds from the start of the run.
// hey leaves requests without an answer out of this file and writes no clock time or sizes, so the
// import has no books and no date of its own; its failed count is the non-2xx answers the file
// lists, and says so. hey keeps at most 1,000,000 results in memory and drops the rest silently, so
// no hey CSV has more lines than that.

import { ImportError, type FormatParser } from './imported-result.ts';
import { checkLatencyUs, readCount, readNonNegative, toNanosecond } from './import-numbers.ts';
import { column, headedCsv } from './csv-line.ts';
import { answeredOnlyCsvParser, RequestSeries } from './request-series.ts';

const REQUIRED = ['response-time', 'status-code', 'offset'];
/** hey keeps this many results at most (its maxResult). */
const HEY_MAX_RESULTS = 1_000_000;

export function createHeyParser(): FormatParser {
  const series = new RequestSeries({ failuresListed: false });
  const csv = headedCsv(
    {
      required: REQUIRED,
      what: "hey's CSV",
      check: (fields, number) => {
        if (fields[0] !== 'response-time') throw new ImportError(number, 'hey\'s CSV starts with the header "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset"');
      },
    },
    (fields, columns, number) => {
      const latencyUs = checkLatencyUs(toNanosecond(readNonNegative(column(fields, columns, 'response-time', number), number, 'response-time') * 1_000_000), number, 'response-time');
      const offsetMs = readNonNegative(column(fields, columns, 'offset', number), number, 'offset') * 1000;
      series.add({ startMs: offsetMs, latencyUs, outcome: { status: readCount(column(fields, columns, 'status-code', number), number, 'status-code') }, bytes: 0 }, number);
    },
  );
  const about = { format: 'hey', what: "hey's CSV", source: "hey's CSV (-o csv)", resolution: 'hey seconds with four decimals (0.1 ms)', unanswered: 'requests without an answer' } as const;
  return answeredOnlyCsvParser(csv, series, about, () => [
    'no sizes: bytes are not in the file',
    ...(series.count >= HEY_MAX_RESULTS ? [`${HEY_MAX_RESULTS} lines, hey's limit: it drops every result past it, so the run may have had more`] : []),
  ]);
}
