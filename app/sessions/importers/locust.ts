// Locust's `--csv PREFIX` statistics, the `PREFIX_stats.csv` file: a header, a row per request name
// and an "Aggregated" row of them all. Summary only, from the Aggregated row: its request and
// failure counts, mean, minimum and maximum (ms with fractions) and its percentile columns (whole
// ms as Locust keeps them: exact below 100 ms, to 10 ms below 1 s, to 100 ms above). The file has
// no run length; Locust's Requests/s is every request over the time from its start to the last
// request, so that time is count ÷ Requests/s. A failure may have got an answer (a 5xx, which
// Locust fails) or none: the stats do not say, so failures are counted as failed without an answer.

import { column, readHeader, splitCsvLine } from './csv-line.ts';
import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, readCount, readNonNegative } from './import-numbers.ts';
import { printedResult, printedSummary, summaryOnlyAbsent } from './printed-summary.ts';

const MAX_LINES = 100_000;
const REQUIRED = ['Type', 'Name', 'Request Count', 'Failure Count', 'Average Response Time', 'Min Response Time', 'Max Response Time', 'Average Content Size', 'Requests/s', '50%', '75%', '90%', '99%', '100%'];

export const LOCUST_RATE_LABEL = "Locust's Requests/s (every request, failed or not, from its start to its last request)";

export function createLocustParser(): FormatParser {
  let columns: Map<string, number> | null = null;
  let aggregated: { fields: string[]; line: number } | null = null;
  let names = 0;
  let lines = 0;
  return {
    line(text, number) {
      if (++lines > MAX_LINES) throw new ImportError(number, `more than ${MAX_LINES} lines: this is no Locust statistics file`);
      if (text.trim() === '') return;
      const fields = splitCsvLine(text, number);
      if (columns === null) {
        if (fields[0] === 'Timestamp') throw new ImportError(number, "this is Locust's statistics history (_stats_history.csv): import the _stats.csv file of the same run");
        columns = readHeader(fields, REQUIRED, number, "Locust's _stats.csv");
        return;
      }
      if (column(fields, columns, 'Name', number) === 'Aggregated') aggregated = { fields, line: number };
      else names++;
    },
    finish(): ImportedResult {
      if (columns === null) throw new ImportError(null, "the file is empty: it has no header of Locust's _stats.csv");
      if (aggregated === null) throw new ImportError(null, 'the file has no "Aggregated" row: it is truncated or not Locust\'s _stats.csv');
      const { fields, line } = aggregated;
      const cell = (name: string) => column(fields, columns!, name, line);
      const count = readCount(cell('Request Count'), line, 'Request Count');
      const failures = readCount(cell('Failure Count'), line, 'Failure Count');
      if (failures > count) throw new ImportError(line, `Failure Count ${failures} is more than Request Count ${count}`);
      const rate = readNonNegative(cell('Requests/s'), line, 'Requests/s');
      const seconds = rate > 0 ? count / rate : 0;
      const answered = count - failures;
      const ms = (name: string) => {
        const value = cell(name).trim();
        // Locust writes N/A for a percentile of no requests.
        return value === 'N/A' || value === '' ? null : checkLatencyUs(readNonNegative(value, line, name) * 1000, line, name);
      };
      const has = (name: string) => columns!.has(name);
      return printedResult({
        format: 'locust',
        source: "Locust's --csv statistics (_stats.csv)",
        resolution: 'percentiles in whole ms as Locust keeps them (to 10 ms from 100 ms, to 100 ms from 1 s); the mean and extremes to the µs',
        tool: {},
        missing: [
          'no per-second series, no histogram: the statistics file holds totals only (its _stats_history.csv has Locust\'s rolling percentiles, not the run\'s)',
          `the run's length is Locust's own: ${count} requests ÷ its Requests/s`,
          ...(names > 1 ? [`${names} request names are summed in the Aggregated row, which is read`] : []),
          ...(failures > 0 ? [`${failures} failures counted as failed without an answer: the statistics do not say whether one got an answer (Locust fails 4xx and 5xx answers too; its _failures.csv names each error)`] : []),
        ],
        absent: { ...summaryOnlyAbsent('Locust'), stddev: 'Locust prints no standard deviation', timeouts: 'Locust counts failures by error message only' },
        toolFigures: { [LOCUST_RATE_LABEL]: rate },
        summary: printedSummary({
          seconds,
          requests: answered,
          bytes: Math.round(readNonNegative(cell('Average Content Size'), line, 'Average Content Size') * count),
          meanUs: count === 0 ? null : ms('Average Response Time'),
          p50Us: ms('50%'),
          p75Us: ms('75%'),
          p90Us: ms('90%'),
          p99Us: ms('99%'),
          p999Us: has('99.9%') ? ms('99.9%') : null,
          maxUs: count === 0 ? null : ms('Max Response Time'),
          errors: { other: failures },
        }),
      });
    },
  };
}
