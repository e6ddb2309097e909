// siege 4.x's results, each form: its text summary ("Transactions: 353 hits", "Elapsed time: 1.69
// secs", …), its JSON summary (`-j`, or json_output = true, siege 4.0's default; siege may print its
// log-file notice around it), or a line of its log (`--log`: one CSV line per run, the last one read).
// Summary only, and coarse: times in seconds to two decimals (10 ms), data in MB. siege counts a
// request as a transaction when it got an answer below 400 (or as configured) and as a failed
// transaction otherwise, a 5xx answer and a refused connection alike: failed is its count, not
// split by kind, and answers are its transactions.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { checkLatencyUs, readNonNegative, toNanosecond } from './import-numbers.ts';
import { isObject } from './json-document.ts';
import { printedResult, printedSummary } from './printed-summary.ts';
import { splitCsvLine } from './csv-line.ts';
import { messageOf } from '../../common/errors.ts';

const MAX_LINES = 10_000;
const LOG_HEADER = /^\s*Date & Time,\s*Trans,\s*Elap Time,/;

interface SiegeFigures {
  transactions: number;
  elapsedS: number;
  dataMb: number;
  responseS: number;
  rate: number;
  concurrency: number;
  failed: number;
  longestS: number | null;
  shortestS: number | null;
}

const TEXT_FIELDS: Record<string, keyof SiegeFigures> = {
  Transactions: 'transactions',
  'Elapsed time': 'elapsedS',
  'Data transferred': 'dataMb',
  'Response time': 'responseS',
  'Transaction rate': 'rate',
  Concurrency: 'concurrency',
  'Failed transactions': 'failed',
  'Longest transaction': 'longestS',
  'Shortest transaction': 'shortestS',
};

const JSON_FIELDS: Record<string, keyof SiegeFigures> = {
  transactions: 'transactions',
  elapsed_time: 'elapsedS',
  data_transferred: 'dataMb',
  response_time: 'responseS',
  transaction_rate: 'rate',
  concurrency: 'concurrency',
  failed_transactions: 'failed',
  longest_transaction: 'longestS',
  shortest_transaction: 'shortestS',
};

const FIGURE_NAMES: Record<keyof SiegeFigures, string> = { transactions: 'transactions', elapsedS: 'elapsed time', dataMb: 'data transferred', responseS: 'response time', rate: 'transaction rate', concurrency: 'concurrency', failed: 'failed transactions', longestS: 'longest transaction', shortestS: 'shortest transaction' };

function complete(found: Partial<SiegeFigures>, what: string): SiegeFigures {
  for (const key of ['transactions', 'elapsedS', 'responseS', 'failed'] as const) {
    if (found[key] === undefined) throw new ImportError(null, `${what} lacks its ${FIGURE_NAMES[key]}: it is truncated or no siege output`);
  }
  return { dataMb: 0, rate: 0, concurrency: 0, longestS: null, shortestS: null, ...found } as SiegeFigures;
}

export function createSiegeParser(): FormatParser {
  const lines: Array<{ text: string; number: number }> = [];
  return {
    line(text, number) {
      if (text.trim() === '') return;
      if (lines.length >= MAX_LINES) throw new ImportError(number, `more than ${MAX_LINES} lines: this is no siege summary or log`);
      lines.push({ text, number });
    },
    finish(): ImportedResult {
      if (lines.length === 0) throw new ImportError(null, 'the file is empty');
      const header = lines.findIndex(({ text }) => LOG_HEADER.test(text));
      const jsonStart = lines.findIndex(({ text }) => text.trimStart().startsWith('{'));
      let figures: SiegeFigures;
      let source: string;
      let note: string | null = null;
      if (header !== -1) {
        const runs = lines.slice(header + 1).filter(({ text }) => /^\d{4}-\d{2}-\d{2}/.test(text.trim()));
        const last = runs.at(-1);
        if (!last) throw new ImportError(lines[header]!.number, "siege's log has its header but no run");
        const fields = splitCsvLine(last.text, last.number).map((field) => field.trim());
        if (fields.length < 10) throw new ImportError(last.number, `a siege log line has 10 fields, this one ${fields.length}: truncated?`);
        const n = (index: number, name: string) => readNonNegative(fields[index], last.number, name);
        figures = { transactions: n(1, 'Trans'), elapsedS: n(2, 'Elap Time'), dataMb: n(3, 'Data Trans'), responseS: n(4, 'Resp Time'), rate: n(5, 'Trans Rate'), concurrency: n(7, 'Concurrent'), failed: n(9, 'Failed'), longestS: null, shortestS: null };
        source = "siege's log";
        if (runs.length > 1) note = `the log holds ${runs.length} runs: the last, of ${fields[0]}, is read`;
      } else if (jsonStart !== -1) {
        const end = lines.findIndex(({ text }, index) => index >= jsonStart && text.trim().endsWith('}'));
        if (end === -1) throw new ImportError(lines.at(-1)!.number, "siege's JSON summary ends before its closing brace: it is truncated");
        let value: unknown;
        try {
          value = JSON.parse(lines.slice(jsonStart, end + 1).map(({ text }) => text).join('\n'));
        } catch (error) {
          throw new ImportError(lines[jsonStart]!.number, `siege's JSON summary is not valid JSON (${messageOf(error)})`);
        }
        if (!isObject(value)) throw new ImportError(lines[jsonStart]!.number, "siege's JSON summary is one object");
        const found: Partial<SiegeFigures> = {};
        for (const [key, name] of Object.entries(JSON_FIELDS)) if (value[key] !== undefined) found[name] = readNonNegative(String(value[key]), lines[jsonStart]!.number, key);
        figures = complete(found, "siege's JSON summary");
        source = "siege's JSON summary";
      } else {
        const found: Partial<SiegeFigures> = {};
        for (const { text, number } of lines) {
          const match = /^([A-Za-z ]+):\s+([0-9.]+)/.exec(text.trim());
          const name = match ? TEXT_FIELDS[match[1]!.trim()] : undefined;
          if (name) found[name] = readNonNegative(match![2], number, match![1]!.trim());
        }
        if (found.transactions === undefined) throw new ImportError(lines[0]!.number, 'siege\'s summary has "Transactions: N hits", its JSON "transactions", its log the header "Date & Time, Trans, …"');
        figures = complete(found, "siege's summary");
        source = "siege's text summary";
      }
      const us = (seconds: number | null, field: string) => (seconds === null ? null : checkLatencyUs(toNanosecond(seconds * 1_000_000), null, field));
      const bytes = Math.round(figures.dataMb * 1024 * 1024);
      const coarse = 'siege prints response times only as a mean and the extremes';
      return printedResult({
        format: 'siege',
        source,
        resolution: 'seconds to two decimals (10 ms), as siege prints them',
        tool: {},
        missing: [
          'no per-second series, no histogram: siege prints totals only',
          `siege's ${figures.failed} failed transactions are 5xx answers and requests without an answer together: siege does not tell them apart`,
          `data as siege printed it, in MB to two decimals`,
          ...(note ? [note] : []),
        ],
        absent: { bands: coarse, stddev: coarse, p50: coarse, p75: coarse, p90: coarse, p99: coarse, timeouts: 'siege does not split its failures by kind', notSent: 'siege does not count requests it could not send', ...(figures.longestS === null ? { max: "siege's log has no longest transaction" } : {}) },
        summary: printedSummary({
          seconds: figures.elapsedS,
          requests: figures.transactions,
          bytes,
          requestsPerSecond: figures.elapsedS > 0 ? figures.transactions / figures.elapsedS : figures.rate,
          meanUs: us(figures.responseS, 'response time'),
          p50Us: null,
          p75Us: null,
          p90Us: null,
          p99Us: null,
          maxUs: us(figures.longestS, 'longest transaction'),
          failed: figures.failed,
        }),
      });
    },
  };
}
