// vegeta's results as `vegeta encode` writes them: JSON (one result a line) or CSV (timestamp in
// Unix ns, status code, latency in ns, bytes out, bytes in, error, body, attack, seq, method, url,
// headers). Per request: a result with code 0 got no answer (its error says why); any other code is
// an answer. Timestamps are when each request was sent.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, jsonNumber, parseIsoTimeMs, readCount } from './import-numbers.ts';
import { splitCsvLine } from './csv-line.ts';
import { isObject } from './json-document.ts';
import { errorKindOfMessage } from './error-kind.ts';
import { RequestSeries, type ImportedRequest } from './request-series.ts';

interface VegetaResult {
  startMs: number;
  code: number;
  latencyNs: number;
  bytesIn: number;
  error: string;
  url: string | undefined;
}

function fromJson(text: string, line: number): VegetaResult {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    throw new ImportError(line, 'the line is not valid JSON: truncated or no vegeta JSON result');
  }
  if (!isObject(entry) || entry.timestamp === undefined || entry.latency === undefined || entry.code === undefined) throw new ImportError(line, 'a vegeta JSON result has timestamp, code and latency');
  return {
    startMs: parseIsoTimeMs(entry.timestamp, line, 'timestamp'),
    code: jsonNumber(entry.code, line, 'code'),
    latencyNs: jsonNumber(entry.latency, line, 'latency'),
    bytesIn: entry.bytes_in === undefined ? 0 : jsonNumber(entry.bytes_in, line, 'bytes_in'),
    error: typeof entry.error === 'string' ? entry.error : '',
    url: typeof entry.url === 'string' ? entry.url : undefined,
  };
}

function fromCsv(text: string, line: number): VegetaResult {
  const fields = splitCsvLine(text, line);
  if (fields.length < 6) throw new ImportError(line, `a vegeta CSV result has at least 6 fields, this line ${fields.length}: truncated?`);
  // Unix nanoseconds pass 2^53: read as a big integer, kept to the microsecond.
  if (!/^\d{1,20}$/.test(fields[0]!)) throw new ImportError(line, `timestamp is not Unix nanoseconds: ${JSON.stringify(fields[0]!.slice(0, 40))}`);
  return {
    startMs: Number(BigInt(fields[0]!) / 1000n) / 1000,
    code: readCount(fields[1], line, 'code'),
    latencyNs: readCount(fields[2], line, 'latency'),
    bytesIn: readCount(fields[4], line, 'bytes in'),
    error: fields[5] ?? '',
    url: fields[10],
  };
}

function toRequest(result: VegetaResult, line: number): ImportedRequest {
  if (!Number.isSafeInteger(result.code) || result.code < 0) throw new ImportError(line, `code ${result.code} is no HTTP status`);
  if (result.bytesIn < 0) throw new ImportError(line, 'bytes_in must not be negative');
  const latencyUs = checkLatencyUs(result.latencyNs / 1000, line, 'latency');
  return {
    startMs: result.startMs,
    latencyUs,
    outcome: result.code === 0 ? { error: errorKindOfMessage(result.error) } : { status: result.code },
    bytes: result.bytesIn,
  };
}

export function createVegetaParser(): FormatParser {
  const series = new RequestSeries({ failuresListed: true });
  let form: 'json' | 'csv' | null = null;
  let target: string | undefined;
  return {
    line(text, number) {
      const trimmed = text.trim();
      if (trimmed === '') return;
      form ??= trimmed.startsWith('{') ? 'json' : /^\d{10,20},/.test(trimmed) ? 'csv' : null;
      if (!form) throw new ImportError(number, 'vegeta results are JSON lines ({"attack":…}) or CSV lines starting with a Unix time in ns: encode them with `vegeta encode`');
      const result = form === 'json' ? fromJson(trimmed, number) : fromCsv(trimmed, number);
      target ??= result.url;
      series.add(toRequest(result, number), number);
    },
    finish(): ImportedResult {
      if (series.count === 0) throw new ImportError(null, 'the file lists no results');
      return series.result(
        {
          format: 'vegeta',
          source: form === 'csv' ? "vegeta's CSV results" : "vegeta's JSON results",
          resolution: 'vegeta nanoseconds',
          tool: { ...(target ? { target } : {}) },
          missing: [],
          absent: {},
        },
        { dated: true },
      );
    },
  };
}
