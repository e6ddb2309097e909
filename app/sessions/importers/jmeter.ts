// JMeter's JTL results in CSV (the default columns or any set with a header: timeStamp, elapsed,
// responseCode, success; bytes and URL when saved). One line per sample: timeStamp is when it
// started (epoch ms, JMeter's default), elapsed its time in ms. A non-HTTP response code
// ("Non HTTP response code: java.net.SocketTimeoutException") is a request without an answer, of
// the kind its exception says. A transaction controller's own line sums its children and is skipped.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, readCount, readNonNegative } from './import-numbers.ts';
import { column, readHeader, splitCsvLine } from './csv-line.ts';
import { RequestSeries } from './request-series.ts';
import type { ErrorKind } from '../../runs/run-summary-schema.ts';

const REQUIRED = ['timeStamp', 'elapsed', 'responseCode'];

function errorKindOfException(code: string): ErrorKind {
  if (/SocketTimeoutException|ConnectTimeoutException|timed out/i.test(code)) return 'timeout';
  if (/ConnectException|refused/i.test(code)) return 'refused';
  if (/reset/i.test(code)) return 'reset';
  if (/NoHttpResponseException|closed|EOF/i.test(code)) return 'closed';
  return 'other';
}

export function createJmeterParser(): FormatParser {
  const series = new RequestSeries({ failuresListed: true });
  let columns: Map<string, number> | null = null;
  let target: string | undefined;
  let skipped = 0;
  return {
    line(text, number) {
      if (text.trim() === '') return;
      if (!columns) {
        if (text.trimStart().startsWith('<')) throw new ImportError(number, 'this is a JTL in XML: save results as CSV (jmeter.save.saveservice.output_format=csv)');
        const fields = splitCsvLine(text.trim(), number);
        if (!fields.includes('timeStamp')) throw new ImportError(number, 'a JTL CSV starts with its header line (timeStamp,elapsed,label,responseCode,…): save it with jmeter.save.saveservice.print_field_names=true');
        columns = readHeader(fields, REQUIRED, number, 'the JTL');
        return;
      }
      const fields = splitCsvLine(text, number);
      const read = (name: string) => column(fields, columns!, name, number);
      if (columns.has('responseMessage') && read('responseMessage').startsWith('Number of samples in transaction')) {
        skipped++;
        return;
      }
      const startMs = readCount(read('timeStamp'), number, 'timeStamp');
      const latencyUs = checkLatencyUs(readNonNegative(read('elapsed'), number, 'elapsed') * 1000, number, 'elapsed');
      const code = read('responseCode').trim();
      const status = /^\d{3}$/.test(code) ? Number(code) : null;
      const bytes = columns.has('bytes') ? readCount(read('bytes'), number, 'bytes') : 0;
      if (columns.has('URL')) target ??= read('URL') || undefined;
      series.add({ startMs, latencyUs, outcome: status === null ? { error: errorKindOfException(code) } : { status }, bytes }, number);
    },
    finish(): ImportedResult {
      if (!columns) throw new ImportError(null, 'the file is empty');
      if (series.count === 0) throw new ImportError(null, 'the JTL lists no samples');
      const missing: string[] = [];
      if (!columns.has('bytes')) missing.push('no sizes: the JTL was saved without bytes');
      if (skipped > 0) missing.push(`${skipped} transaction controller lines skipped (their samples are counted on their own lines)`);
      return series.result(
        {
          format: 'jmeter',
          source: "JMeter's JTL CSV",
          resolution: 'whole milliseconds, as JMeter records them',
          tool: { ...(target ? { target } : {}) },
          missing,
          absent: {},
        },
        { dated: true },
      );
    },
  };
}
