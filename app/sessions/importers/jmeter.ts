// JMeter's JTL results, each form it writes: CSV with a header (any set of columns holding
// timeStamp, elapsed and responseCode; success, bytes and URL when saved), CSV without one (JMeter
// 2.x's default: its twelve default columns; 3.1 and later write seventeen), and XML (one
// <httpSample>/<sample> element per sample, attributes t, ts, s, rc, by, lb). timeStamp is when a
// sample started (epoch ms, JMeter's default), elapsed its time in ms.
//
// What a sample means here:
// - a non-HTTP response code ("Non HTTP response code: java.net.SocketTimeoutException") is a
//   request without an answer, of the kind its exception says, and its "bytes" (the exception's
//   text, which JMeter keeps as the response) are not received bytes;
// - an answer JMeter marked unsuccessful (success=false: an assertion failed) with a 1xx–3xx code
//   is a failure (other), not a success; a 4xx/5xx answer is a non-2xx answer either way;
// - a transaction controller's parent sample sums its requests. Where the requests are in the
//   file too (their own lines, or nested in the XML) the parent is left out; where the file holds
//   only parents ("Generate parent sample" in CSV), each parent is one timed transaction.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, readCount, readNonNegative } from './import-numbers.ts';
import { column, readHeader, splitCsvLine } from './csv-line.ts';
import { RequestSeries, type ImportedRequest } from './request-series.ts';
import type { ErrorKind } from '../../runs/run-summary-schema.ts';

const REQUIRED = ['timeStamp', 'elapsed', 'responseCode'];

/** The columns JMeter writes without a header line by default, by their count. */
const DEFAULT_COLUMNS: Record<number, { version: string; names: string[] }> = {
  12: { version: 'JMeter 2.x', names: ['timeStamp', 'elapsed', 'label', 'responseCode', 'responseMessage', 'threadName', 'dataType', 'success', 'bytes', 'grpThreads', 'allThreads', 'Latency'] },
  17: { version: 'JMeter 3.1 or later', names: ['timeStamp', 'elapsed', 'label', 'responseCode', 'responseMessage', 'threadName', 'dataType', 'success', 'failureMessage', 'bytes', 'sentBytes', 'grpThreads', 'allThreads', 'URL', 'Latency', 'IdleTime', 'Connect'] },
};

const TRANSACTION_MESSAGE = /^Number of samples in transaction/;

function errorKindOfException(code: string): ErrorKind {
  if (/SocketTimeoutException|ConnectTimeoutException|timed out/i.test(code)) return 'timeout';
  if (/ConnectException|refused/i.test(code)) return 'refused';
  if (/reset/i.test(code)) return 'reset';
  if (/NoHttpResponseException|closed|EOF/i.test(code)) return 'closed';
  return 'other';
}

/** One sample as the file gives it, whatever the form. */
interface Sample {
  startMs: string;
  elapsedMs: string;
  code: string;
  success: string | undefined;
  bytes: string | undefined;
  url: string | undefined;
}

interface Counts {
  assertionFailures: number;
  exceptionBytes: number;
}

function requestOf(sample: Sample, line: number, counts: Counts): ImportedRequest {
  const startMs = readCount(sample.startMs, line, 'timeStamp');
  const latencyUs = checkLatencyUs(readNonNegative(sample.elapsedMs, line, 'elapsed') * 1000, line, 'elapsed');
  const code = sample.code.trim();
  const status = /^\d{3}$/.test(code) ? Number(code) : null;
  const bytes = sample.bytes === undefined || sample.bytes === '' ? 0 : readCount(sample.bytes, line, 'bytes');
  if (status === null) {
    counts.exceptionBytes += bytes;
    return { startMs, latencyUs, outcome: { error: errorKindOfException(code) }, bytes: 0 };
  }
  if (sample.success?.trim().toLowerCase() === 'false' && status < 400) {
    counts.assertionFailures++;
    return { startMs, latencyUs, outcome: { error: 'other' }, bytes };
  }
  return { startMs, latencyUs, outcome: { status }, bytes };
}

export function createJmeterParser(): FormatParser {
  const samples = new RequestSeries({ failuresListed: true });
  const transactions = new RequestSeries({ failuresListed: true });
  const counts: Counts = { assertionFailures: 0, exceptionBytes: 0 };
  let form: 'csv' | 'xml' | null = null;
  let columns: Map<string, number> | null = null;
  let headerless: string | null = null;
  let target: string | undefined;
  let lastLine = 0;
  // XML: the samples open at this point, each with whether it holds samples of its own.
  const open: Array<{ sample: Sample; parent: boolean; line: number }> = [];
  let xmlClosed = false;

  const add = (sample: Sample, line: number, parent: boolean) => {
    target ??= sample.url || undefined;
    (parent ? transactions : samples).add(requestOf(sample, line, counts), line);
  };

  const csvLine = (text: string, number: number) => {
    const fields = splitCsvLine(text, number);
    if (!columns) {
      if (fields.includes('timeStamp')) {
        columns = readHeader(fields, REQUIRED, number, 'the JTL');
        return;
      }
      const defaults = DEFAULT_COLUMNS[fields.length];
      if (!/^\d{10,14}$/.test(fields[0] ?? '') || !defaults) {
        throw new ImportError(number, `a JTL CSV starts with its header line (timeStamp,elapsed,label,responseCode,…), or is written without one in JMeter's default columns (12 in JMeter 2.x, 17 since 3.1); this line has ${fields.length} fields: save it with jmeter.save.saveservice.print_field_names=true`);
      }
      columns = new Map(defaults.names.map((name, index) => [name, index]));
      headerless = defaults.version;
    }
    const read = (name: string) => (columns!.has(name) ? column(fields, columns!, name, number) : undefined);
    const parent = TRANSACTION_MESSAGE.test(read('responseMessage') ?? '');
    add({ startMs: read('timeStamp')!, elapsedMs: read('elapsed')!, code: read('responseCode')!, success: read('success'), bytes: read('bytes'), url: read('URL') }, number, parent);
  };

  const xmlLine = (text: string, number: number) => {
    for (const tag of text.matchAll(/<(\/?)(httpSample|sample)\b([^>]*?)(\/?)>/g)) {
      const [, closing, , attributes, selfClosing] = tag;
      if (closing) {
        const done = open.pop();
        if (!done) throw new ImportError(number, 'a sample closes that never opened: the XML is damaged');
        add(done.sample, done.line, done.parent);
        continue;
      }
      if (open.length > 0) open.at(-1)!.parent = true;
      const sample = sampleOfAttributes(attributes!, number);
      if (selfClosing) add(sample, number, false);
      else open.push({ sample, parent: false, line: number });
    }
    if (text.includes('</testResults>')) xmlClosed = true;
  };

  return {
    line(text, number) {
      const trimmed = text.trim();
      if (trimmed === '') return;
      lastLine = number;
      form ??= trimmed.startsWith('<') ? 'xml' : 'csv';
      if (form === 'xml') xmlLine(trimmed, number);
      else csvLine(text, number);
    },
    finish(): ImportedResult {
      if (!form) throw new ImportError(null, 'the file is empty');
      if (form === 'xml' && (open.length > 0 || !xmlClosed)) throw new ImportError(lastLine, "the XML ends before </testResults>: the file is cut short (JMeter's JTL in XML)");
      const onlyParents = samples.count === 0 && transactions.count > 0;
      const series = onlyParents ? transactions : samples;
      if (series.count === 0) throw new ImportError(null, 'the JTL lists no samples');
      const missing: string[] = [];
      if (form === 'csv' && !columns!.has('bytes')) missing.push('no sizes: the JTL was saved without bytes');
      if (form === 'csv' && !columns!.has('success')) missing.push("no success column: answers JMeter's assertions failed cannot be told apart");
      if (headerless) missing.push(`no header line: read as ${headerless}'s default columns`);
      if (onlyParents) missing.push(`the file holds a transaction controller's parent samples only: each of the ${transactions.count} is one transaction, timed whole (its requests are not in the file)`);
      else if (transactions.count > 0) missing.push(`${transactions.count} transaction controller samples left out (their requests are counted on their own)`);
      if (counts.assertionFailures > 0) missing.push(`${counts.assertionFailures} answers JMeter marked failed (an assertion) are counted as failures (other), not as answers`);
      if (counts.exceptionBytes > 0) missing.push(`${counts.exceptionBytes} bytes of exception text of failed samples are not counted as received`);
      return series.result(
        {
          format: 'jmeter',
          source: form === 'xml' ? "JMeter's JTL XML" : "JMeter's JTL CSV",
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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, name: string) => (name.startsWith('#x') ? String.fromCodePoint(parseInt(name.slice(2), 16)) : name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : ENTITIES[name]!));
}

/** A sample element's attributes: t (elapsed), ts (start), s (success), rc (code), by (bytes). */
function sampleOfAttributes(text: string, line: number): Sample {
  const attributes = new Map<string, string>();
  for (const [, name, value] of text.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) attributes.set(name!, unescapeXml(value!));
  const need = (name: string, what: string) => {
    const value = attributes.get(name);
    if (value === undefined) throw new ImportError(line, `the sample has no ${name}="…" (${what}): is this JMeter's JTL?`);
    return value;
  };
  return { startMs: need('ts', 'its start'), elapsedMs: need('t', 'its time'), code: need('rc', 'its response code'), success: attributes.get('s'), bytes: attributes.get('by'), url: undefined };
}
