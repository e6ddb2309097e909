// The sessions part of the contract: stored sessions (`sessions.*`: read, rename, delete, import
// another tool's results file in pieces), the library (entries with templates and host names,
// notes and tags, duplicate as a draft, Run again), opening a comparison of 2..N sessions or
// chosen runs and exporting it as a PDF (`compare.*`), and loading a saved session's timeline for
// replay (`replay.*`). Event: `sessions.changed`, when another process sharing the store changed
// the sessions.

import { z } from 'zod';
import { NoArgs, request } from '../common/contract-kit.ts';
import { Comparison, MAX_COMPARED } from './comparison.ts';
import { ReplayData } from './replay.ts';
import { LibraryEntry, Notes, Tags } from './session-library.ts';
import { LiveRun } from '../runs/runs.ts';
import { SessionId, SessionName } from '../runs/session-identity.ts';
import { Session, SessionSummary } from './sessions.ts';
import { IMPORT_CHUNK_BYTES, IMPORT_FORMATS } from './importers/index.ts';

export const CompareSelection = z
  .object({
    sessionIds: z
      .array(SessionId)
      .min(2, 'pick at least 2 sessions')
      .max(MAX_COMPARED, `pick at most ${MAX_COMPARED} sessions`)
      .refine((ids) => new Set(ids).size === ids.length, 'lists a session twice'),
    /** Only these runs of the chosen sessions (sweep steps); all runs when absent. */
    runIds: z.array(z.number().int().positive()).max(1000).optional(),
    title: z.string().trim().max(300, 'must be at most 300 characters').optional(),
  })
  .strict();
export type CompareSelection = z.output<typeof CompareSelection>;

export const PdfExport = z.object({
  /** The copy kept in the data dir's reports folder. */
  file: z.string(),
  fileName: z.string(),
  bytes: z.number(),
  /** Time Chromium took to lay out and print, in ms. */
  renderMs: z.number(),
  /** The PDF as base64, when asked for a download (web mode hands it to the browser); null otherwise. */
  content: z.string().nullable(),
  /** Where the desktop app's save dialog put it; null when not asked, or the dialog was cancelled. */
  savedTo: z.string().nullable(),
});
export type PdfExport = z.infer<typeof PdfExport>;

/** What a session exports to (app/sessions/session-export.ts, docs/exports.md). */
export const SessionExportFormat = z.enum(['json', 'csv', 'hdr-log'], { error: 'must be json, csv or hdr-log' });
export type SessionExportFormat = z.infer<typeof SessionExportFormat>;

export const SessionExportFile = z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() });
export type SessionExportFile = z.infer<typeof SessionExportFile>;

/** ab's text report sent beside its -g file: a page of text, far below the transport's 1 MiB. */
export const AB_REPORT_MAX_CHARS = 256 * 1024;

/** An upload of a results file from the Sessions page (`sessions.importBegin` gives it). */
const UploadId = z.string().uuid('is no upload id');

/** A piece of the file as base64: whole groups of four characters, at most IMPORT_CHUNK_BYTES once decoded. */
const Base64Chunk = z
  .string()
  .min(4, 'must not be empty')
  .max(Math.ceil(IMPORT_CHUNK_BYTES / 3) * 4, `must be at most ${IMPORT_CHUNK_BYTES} bytes once decoded`)
  .refine((text) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text), 'must be base64');

export const sessionRequests = {
  /** Every stored session, newest first (the Sessions page filters the library entries itself). */
  'sessions.list': request(NoArgs, z.array(SessionSummary)),
  'sessions.get': request(z.object({ id: SessionId }).strict(), Session),
  'sessions.rename': request(z.object({ id: SessionId, name: SessionName }).strict(), Session),
  'sessions.delete': request(z.object({ id: SessionId }).strict(), z.object({ deleted: z.boolean() })),
  'sessions.library': request(NoArgs, z.array(LibraryEntry)),
  'sessions.update': request(z.object({ id: SessionId, notes: Notes.optional(), tags: Tags.optional() }).strict(), Session),
  /** A new draft session with the same hosts and configuration, linked to the original. */
  'sessions.duplicate': request(z.object({ id: SessionId }).strict(), Session),
  /** Starts the same configuration on the same hosts: a new session linked to the original. */
  'sessions.runAgain': request(z.object({ id: SessionId }).strict(), LiveRun),
  /**
   * Another load tool's results file as a session marked "imported from <format>"
   * (app/sessions/importers/), uploaded in pieces since a request crosses the transport whole:
   * begin with the file's size (refused at once over the cap), send its bytes in order from
   * offset 0 in pieces of at most `chunkBytes`, then finish (imports it; nothing is stored on a
   * bad file) or cancel. An upload without a piece for a minute is dropped.
   */
  'sessions.importBegin': request(
    z
      .object({
        fileName: z.string().min(1).max(1000),
        format: z.enum(IMPORT_FORMATS),
        size: z.number().int().nonnegative(),
        /** With ab's -g file: ab's text report of the same run, for its elapsed time (a few KB). */
        abReport: z.object({ fileName: z.string().min(1).max(1000), text: z.string().max(AB_REPORT_MAX_CHARS, `must be at most ${AB_REPORT_MAX_CHARS / 1024} KiB: ab's report is a page of text`) }).strict().optional(),
      })
      .strict()
      .refine((request) => request.abReport === undefined || request.format === 'ab', { message: "a report goes with ab's -g file (format ab)", path: ['abReport'] }),
    z.object({ uploadId: UploadId, chunkBytes: z.number().int().positive() }),
  ),
  'sessions.importChunk': request(z.object({ uploadId: UploadId, offset: z.number().int().nonnegative(), data: Base64Chunk }).strict(), z.object({ received: z.number() })),
  'sessions.importFinish': request(z.object({ uploadId: UploadId }).strict(), Session),
  'sessions.importCancel': request(z.object({ uploadId: UploadId }).strict(), z.object({ cancelled: z.boolean() })),
  /** The session as a file for other tools: JSON, CSV per second, or an HdrHistogram interval log. */
  'sessions.export': request(z.object({ id: SessionId, format: SessionExportFormat }).strict(), SessionExportFile),
  'compare.open': request(CompareSelection, Comparison),
  /**
   * Prints the comparison to a PDF kept in the data dir and, with `deliver`, gives it to the user:
   * `download` returns its bytes for the browser, `save-dialog` asks where to save (the desktop app).
   */
  'compare.exportPdf': request(
    CompareSelection.extend({ notes: Notes.optional(), deliver: z.enum(['download', 'save-dialog'], { error: 'must be download or save-dialog' }).optional() }).strict(),
    PdfExport,
  ),
  /** The comparison's data as one file: JSON, CSV per second of every compared run, or their merged histograms as an HdrHistogram log. */
  'compare.export': request(CompareSelection.extend({ format: SessionExportFormat }).strict(), SessionExportFile),
  'replay.load': request(z.object({ sessionId: SessionId }).strict(), ReplayData),
} as const;

export const sessionEvents = {
  /**
   * Another Benchlab process on the same data dir (a CLI run, an import) changed the stored
   * sessions: the library is worth loading again. Carries nothing more.
   */
  'sessions.changed': z.object({}).strict(),
} as const;
