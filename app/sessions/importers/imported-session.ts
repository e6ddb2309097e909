// How an imported result is kept: one completed session with one run, named after the file unless
// told otherwise, its provenance in the config (`imported`: format, file, when, the tool's version
// and command where the file has them, what is missing), the run's template "imported" with the
// format as its variant, and its step labelled by the load the file states (wrk's "c=20, 3 s", so
// it sits in the same comparison table as a Benchlab run of that load) or by the format.

import { describeLoad } from '../../runs/load-profile.ts';
import { hasControlCharacters } from '../../common/text.ts';
import type { ImportedResult, ImportProvenance } from './imported-result.ts';

export const IMPORTED_TEMPLATE = 'imported';

export interface ImportNaming {
  fileName: string;
  importedAt: Date;
  /** The session's name; "<file> (imported from <format>)" when absent. */
  name?: string | undefined;
  tags?: string[] | undefined;
}

export interface ImportedSessionRecord {
  name: string;
  tags: string[];
  config: Record<string, unknown> & { imported: ImportProvenance };
  run: { templateId: string; variant: string; step: Record<string, unknown> };
  startedAt: Date | null;
  endedAt: Date | null;
}

/** A file name fit to show: its last path part, control characters out, at most 120 characters. */
export function displayFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const clean = [...base].filter((char) => !hasControlCharacters(char)).join('').trim();
  return (clean || 'results').slice(0, 120);
}

export function importedSessionRecord(result: ImportedResult, naming: ImportNaming): ImportedSessionRecord {
  const fileName = displayFileName(naming.fileName);
  const load = result.load ? { model: 'closed' as const, connections: result.load.connections, pipelining: 1, ...(result.load.requests !== undefined ? { requests: result.load.requests } : { durationS: result.load.durationS }) } : null;
  const imported: ImportProvenance = {
    format: result.format,
    source: result.source,
    resolution: result.resolution,
    fileName,
    importedAt: naming.importedAt.toISOString(),
    tool: result.tool,
    missing: result.missing,
    absent: result.absent,
    ...(result.toolFigures ? { toolFigures: result.toolFigures } : {}),
  };
  return {
    name: naming.name ?? `${fileName} (imported from ${result.format})`.slice(0, 200),
    tags: naming.tags ?? [],
    config: { imported, ...(result.tool.target ? { target: result.tool.target } : {}) },
    run: {
      templateId: IMPORTED_TEMPLATE,
      variant: result.format,
      step: { label: load ? describeLoad(load) : `imported from ${result.format}`, ...(load ? { load } : {}), imported: true },
    },
    startedAt: result.startedAt ? new Date(result.startedAt) : null,
    endedAt: result.endedAt ? new Date(result.endedAt) : null,
  };
}

/** "imported from wrk's text output with --latency", for the library and the comparison. */
export function importedFromText(provenance: Pick<ImportProvenance, 'source'>): string {
  return `imported from ${provenance.source}`;
}
