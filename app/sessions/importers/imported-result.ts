// What an importer makes of another load tool's results file: one shape for every format. A
// per-request format gives Benchlab's own per-second rows (with real HDR interval histograms); a
// summary-only format gives the figures the tool printed as a run summary. Either way the result
// says what the format does not carry (`missing`, in words) and which comparison figures must show
// as "—" (`absent`, with the reason), and the provenance kept in the session's config says so too.
// Also the one error type of every parser: a message naming the line.

import { z } from 'zod';
import type { RunSecond } from '../../runs/run-second.ts';
import type { RunSummary } from '../../runs/run-summary-schema.ts';

export const IMPORT_FORMATS = ['wrk', 'ab', 'k6', 'oha', 'vegeta', 'hey', 'jmeter', 'bombardier', 'siege', 'autocannon', 'loadtest', 'artillery', 'locust', 'gatling'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Figures of a comparison row (its column keys; `bands` for all band columns) an import may lack. */
export const IMPORT_FIGURES = ['rps', 'mean', 'stddev', 'p50', 'p75', 'p90', 'p99', 'max', 'bands', 'failed', 'timeouts', 'notSent'] as const;
export type ImportFigure = (typeof IMPORT_FIGURES)[number];

/** A closed-model load the file states (wrk's connections and duration, ab's -c and -n). */
export interface ImportedLoad {
  connections: number;
  durationS?: number;
  requests?: number;
}

export interface ImportedResultBase {
  format: ImportFormat;
  /** The variant read, in words: "wrk's text output with --latency", "ab's -g TSV". */
  source: string;
  /** Where the tool's latencies come from and to what precision: the imported resolution is the tool's. */
  resolution: string;
  /** The tool's version, command line and target where the file carries them. */
  tool: { version?: string; command?: string; target?: string };
  missing: string[];
  absent: Partial<Record<ImportFigure, string>>;
  /**
   * The tool's own figures that mean something else than Benchlab's of the same name, labelled
   * with what they count ("oha's requestsPerSec (every request sent, answered or not, per second)").
   */
  toolFigures?: Record<string, number>;
  /** When the measured requests started and ended (ISO), where the file has clock times. */
  startedAt: string | null;
  endedAt: string | null;
  load: ImportedLoad | null;
}

/** An imported second is always one of the measured window: a file has no warm-up or drain. */
export type ImportedSecond = RunSecond & { phase: 'measure' };

export type ImportedResult = ImportedResultBase & ({ kind: 'per-request'; seconds: ImportedSecond[] } | { kind: 'summary'; summary: RunSummary });

/** The provenance an imported session keeps in its config as `imported`. */
export const ImportProvenance = z.object({
  format: z.enum(IMPORT_FORMATS),
  source: z.string(),
  resolution: z.string(),
  fileName: z.string(),
  importedAt: z.string(),
  tool: z.object({ version: z.string().optional(), command: z.string().optional(), target: z.string().optional() }),
  missing: z.array(z.string()),
  absent: z.partialRecord(z.enum(IMPORT_FIGURES), z.string()),
  toolFigures: z.record(z.string(), z.number()).optional(),
});
export type ImportProvenance = z.infer<typeof ImportProvenance>;

/** The provenance of an imported session, or null for one Benchlab measured (or a damaged record). */
export function importProvenanceOf(config: Readonly<Record<string, unknown>>): ImportProvenance | null {
  if (!config.imported) return null;
  const parsed = ImportProvenance.safeParse(config.imported);
  return parsed.success ? parsed.data : null;
}

/** A file an importer cannot read: the message names the line (null: the file as a whole). */
export class ImportError extends Error {
  readonly line: number | null;
  constructor(line: number | null, message: string) {
    super(message);
    this.name = 'ImportError';
    this.line = line;
  }
}

/** Reads one format line by line, so a large per-request file never has to be one string. */
export interface FormatParser {
  /** One line without its line break, numbered from 1; throws ImportError. */
  line(text: string, number: number): void;
  /** The result once every line is read; throws ImportError for a file that ends too early. */
  finish(): ImportedResult;
}

/** A format with several forms (k6's, oha's): the first line that is not blank picks the parser of the file. */
export function parserByFirstLine(pick: (firstLine: string) => FormatParser): FormatParser {
  let parser: FormatParser | null = null;
  return {
    line(text, number) {
      if (!parser) {
        if (text.trim() === '') return;
        parser = pick(text.trim());
      }
      parser.line(text, number);
    },
    finish() {
      if (!parser) throw new ImportError(null, 'the file is empty');
      return parser.finish();
    },
  };
}
