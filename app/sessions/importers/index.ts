// The importers by format, and the one way a file is read: line by line through an ImportReader,
// which numbers the lines, refuses overlong ones, and turns a parser's error into one line naming
// the file and line — with a hint when the file looks like another format ("this looks like k6's
// --out json NDJSON, not wrk's text output"). The service feeds it a file's lines as it reads
// them; text already in hand goes through importText. Both end with the same ImportedResult.

import { createAbParser, type AbRun } from './ab.ts';
import { createArtilleryParser } from './artillery.ts';
import { createAutocannonParser } from './autocannon.ts';
import { createBombardierParser } from './bombardier.ts';
import { createGatlingParser } from './gatling.ts';
import { createHeyParser } from './hey.ts';
import { IMPORT_FORMATS, ImportError, type FormatParser, type ImportedResult, type ImportFormat } from './imported-result.ts';
import { createJmeterParser } from './jmeter.ts';
import { createK6Parser } from './k6.ts';
import { createLoadtestParser } from './loadtest.ts';
import { createLocustParser } from './locust.ts';
import { createOhaParser } from './oha.ts';
import { createSiegeParser } from './siege.ts';
import { createVegetaParser } from './vegeta.ts';
import { createWrkParser } from './wrk.ts';

export { IMPORT_FORMATS, type ImportFormat, type ImportedResult };

/** Largest file imported, from the CLI or the Sessions page (per-line formats are streamed). */
export const MAX_IMPORT_FILE_BYTES = 512 * 1024 * 1024;
/** Longest line of any format read (a vegeta JSON result with its body base64 inside stays well below). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** What a file is read with besides its own lines: ab's text report of the run that wrote a -g file. */
export interface ImportOptions {
  abRun?: AbRun | undefined;
}

interface Importer {
  label: string;
  /** What the format's files are, for help texts. */
  accepts: string;
  create(options: ImportOptions): FormatParser;
}

export const IMPORTERS: Record<ImportFormat, Importer> = {
  wrk: { label: "wrk's text output", accepts: 'wrk text output (with --latency for percentiles)', create: createWrkParser },
  ab: { label: "ab's output", accepts: "ab text output, or ab's -g TSV (per request; with --report, ab's text of the same run)", create: (options) => createAbParser({ ...(options.abRun ? { run: options.abRun } : {}) }) },
  k6: { label: "k6's results", accepts: 'k6 --summary-export JSON, or --out json NDJSON (per request)', create: createK6Parser },
  oha: { label: "oha's output", accepts: 'oha --output-format json (--json before 1.x), or --output-format csv (per request)', create: createOhaParser },
  vegeta: { label: "vegeta's results", accepts: 'vegeta encode JSON or CSV results (per request)', create: createVegetaParser },
  hey: { label: "hey's CSV", accepts: 'hey -o csv output (per request)', create: createHeyParser },
  jmeter: { label: "JMeter's JTL", accepts: 'JMeter JTL results, CSV with or without a header, or XML (per request)', create: createJmeterParser },
  bombardier: { label: "bombardier's JSON", accepts: 'bombardier -o json -p r (with -l for percentiles)', create: createBombardierParser },
  siege: { label: "siege's output", accepts: 'siege 4 text or JSON summary, or its --log file (the last run)', create: createSiegeParser },
  autocannon: { label: "autocannon's JSON", accepts: 'autocannon -j output', create: createAutocannonParser },
  loadtest: { label: "loadtest's output", accepts: "loadtest's text output (the npm package)", create: createLoadtestParser },
  artillery: { label: "Artillery's report", accepts: 'artillery run --output report.json', create: createArtilleryParser },
  gatling: { label: "Gatling's results", accepts: "Gatling's simulation.log (3.0–3.11, per request) or its console's Global Information block", create: createGatlingParser },
  locust: { label: "Locust's statistics", accepts: "Locust's --csv statistics (the _stats.csv file)", create: createLocustParser },
};

export function isImportFormat(text: string): text is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(text);
}

const LOG_OR_SUMMARY_OF_SIEGE = /^\s*Date & Time,\s*Trans,|^\*\* SIEGE \d|^Transactions:\s+\d+ hits$/m;

/** What a file's first lines look like, when they look like something known. */
export function sniffFormat(firstLines: readonly string[]): { format: ImportFormat; what: string } | null {
  const first = firstLines[0]?.trim() ?? '';
  const all = firstLines.join('\n');
  if (/^Running \S+ test @/.test(first)) return { format: 'wrk', what: "wrk's text output" };
  if (first.startsWith('This is ApacheBench')) return { format: 'ab', what: "ab's text output" };
  if (first.startsWith('starttime\tseconds\tctime')) return { format: 'ab', what: "ab's -g TSV" };
  if (/^\{\s*"type"\s*:\s*"(Metric|Point)"/.test(first)) return { format: 'k6', what: "k6's --out json NDJSON" };
  if (/^\{.*"latency"\s*:.*"code"\s*:|^\{.*"code"\s*:.*"latency"\s*:/.test(first)) return { format: 'vegeta', what: "vegeta's JSON results" };
  if (/^\d{16,20},\d{1,3},\d+,/.test(first)) return { format: 'vegeta', what: "vegeta's CSV results" };
  if (first.startsWith('response-time,DNS+dialup')) return { format: 'hey', what: "hey's CSV" };
  if (first.startsWith('request-start,DNS,DNS+dialup')) return { format: 'oha', what: "oha's CSV" };
  if (/^timeStamp,elapsed/.test(first) || /^"?timeStamp"?[,;\t]/.test(first)) return { format: 'jmeter', what: "JMeter's JTL CSV" };
  // The one XML format read; a file cut after its first line has only the declaration to go by.
  if (/^<\?xml\b|^<testResults\b/.test(first) || (first.startsWith('<') && /<testResults\b|<httpSample\b|<sample\b/.test(all))) return { format: 'jmeter', what: "JMeter's JTL XML" };
  if (/^\d{13},\d+,[^,]*,(\d{3}|Non HTTP response code[^,]*),/.test(first)) return { format: 'jmeter', what: "JMeter's JTL CSV without its header" };
  if (/^RUN\t[^\t]*\t/.test(first)) return { format: 'gatling', what: "Gatling's simulation.log" };
  if (/^Simulation \S+ started\b|^-+ Global Information -+$|^---- Requests -+$/m.test(all)) return { format: 'gatling', what: "Gatling's console output" };
  if (/^Type,Name,Request Count,Failure Count/.test(first)) return { format: 'locust', what: "Locust's _stats.csv" };
  if (/^Timestamp,User Count,Type,Name/.test(first)) return { format: 'locust', what: "Locust's _stats_history.csv" };
  if (/^Requests: \d+(?: \(\d+%\))?, requests per second: /m.test(all) || /^Target URL:\s+\S+$/m.test(all)) return { format: 'loadtest', what: "loadtest's output" };
  if (LOG_OR_SUMMARY_OF_SIEGE.test(all)) return { format: 'siege', what: "siege's output" };
  // A JSON summary may follow a tool's notices (siege's first-use lines).
  if (/^\s*\{/m.test(all)) {
    // oha 1.x's JSON has a "metrics" object too: its own summary words go first.
    if (/"summary"\s*:\s*\{/.test(all) && /"successRate"|"requestsPerSec"|"slowest"/.test(all)) return { format: 'oha', what: "oha's JSON output" };
    if (/"metrics"\s*:|"root_group"\s*:/.test(all)) return { format: 'k6', what: "k6's --summary-export JSON" };
    if (/"spec"\s*:\s*\{/.test(all) && /"numberOfConnections"|"timeTakenSeconds"/.test(all)) return { format: 'bombardier', what: "bombardier's JSON" };
    if (/"transactions"\s*:/.test(all) && /"availability"\s*:/.test(all)) return { format: 'siege', what: "siege's JSON summary" };
    if (/"aggregate"\s*:\s*\{/.test(all) && /"counters"\s*:|"intermediate"\s*:/.test(all)) return { format: 'artillery', what: "Artillery's JSON report" };
    if (/"latency"\s*:\s*\{/.test(all) && /"non2xx"\s*:|"sampleInt"\s*:|"pipelining"\s*:/.test(all)) return { format: 'autocannon', what: "autocannon's JSON" };
  }
  return null;
}

/** Lines of text a file is judged by when it does not parse as the format asked. */
const SNIFFED_LINES = 12;

/** Reads one file of one format line by line; `finish` gives the result. Errors name the file and line. */
export class ImportReader {
  readonly #format: ImportFormat;
  readonly #fileName: string;
  readonly #parser: FormatParser;
  readonly #firstLines: string[] = [];
  /** Lines read but not yet parsed (with their numbers), until SNIFFED_LINES of text are in; then null. */
  #held: Array<[string, number]> | null = [];
  #number = 0;
  #lastText = 0;

  constructor(format: ImportFormat, fileName: string, options: ImportOptions = {}) {
    this.#format = format;
    this.#fileName = fileName;
    this.#parser = IMPORTERS[format].create(options);
  }

  line(text: string): void {
    this.#number++;
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() !== '') this.#lastText = this.#number;
    try {
      if (line.length > MAX_LINE_CHARS) throw new ImportError(this.#number, `the line is longer than ${MAX_LINE_CHARS / 1024 / 1024} MiB: this is no ${IMPORTERS[this.#format].label}`);
      if (this.#firstLines.length < SNIFFED_LINES && line.trim() !== '') this.#firstLines.push(line.slice(0, 4096));
      // The first lines wait until there are enough to tell what the file is: a pretty-printed JSON
      // file's first line is a lone "{", which every format's parser refuses alike.
      if (this.#held !== null) {
        this.#held.push([line, this.#number]);
        if (this.#firstLines.length < SNIFFED_LINES) return;
        this.#release();
      } else this.#parser.line(line, this.#number);
    } catch (error) {
      throw this.#explain(error);
    }
  }

  /** The held first lines, to the parser. */
  #release(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const [line, number] of held) this.#parser.line(line, number);
  }

  /**
   * The result once every line is read. `cutShort`: the file's last line had no line break. Every
   * tool read here ends each line of a per-request file with one, so such a file was cut (a copy
   * stopped, a disk filled) inside its last line, which may still parse as a shorter number.
   */
  finish(options: { cutShort?: boolean } = {}): ImportedResult {
    let result: ImportedResult;
    try {
      this.#release();
      result = this.#parser.finish();
    } catch (error) {
      throw this.#explain(error);
    }
    if (options.cutShort && result.kind === 'per-request') {
      throw new ImportError(this.#lastText, `${this.#fileName}:${this.#lastText}: the file ends inside this line, without its line break: it was cut short (${result.source}; nothing is stored)`);
    }
    return result;
  }

  /** One line for the user: file, line, what went wrong — or what the file looks like instead. */
  #explain(error: unknown): ImportError {
    if (!(error instanceof ImportError)) throw error;
    const where = error.line === null ? this.#fileName : `${this.#fileName}:${error.line}`;
    const sniffed = sniffFormat(this.#firstLines);
    const label = IMPORTERS[this.#format].label;
    if (sniffed && sniffed.format !== this.#format) return new ImportError(error.line, `${where}: this looks like ${sniffed.what}, not ${label}: import it as ${sniffed.format}`);
    return new ImportError(error.line, `${where}: ${error.message}`);
  }
}

/** A whole file's text through an ImportReader (files are streamed through one instead). */
export function importText(format: ImportFormat, fileName: string, text: string, options: ImportOptions = {}): ImportedResult {
  const reader = new ImportReader(format, fileName, options);
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    // The final empty piece after a trailing newline is no line.
    if (end !== -1 || stop > start) reader.line(text.slice(start, stop));
    start = stop + 1;
  }
  return reader.finish({ cutShort: text.length > 0 && !text.endsWith('\n') && text.slice(text.lastIndexOf('\n') + 1).trim() !== '' });
}

/**
 * Bytes of a results file per piece the Sessions page uploads (`sessions.importChunk`): sent as
 * base64, a third larger, so one piece and its request stay well inside the transport's 1 MiB.
 */
export const IMPORT_CHUNK_BYTES = 512 * 1024;
