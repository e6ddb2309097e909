// The sessions library as the UI filters it: each session with the templates it ran and its hosts'
// names, the edits a user may make (notes, tags), and the pure filter by text, template, host, date
// range and tag (a few hundred sessions filter instantly in the page, no round trip per keystroke).

import { z } from 'zod';
import { SessionSummary } from './sessions.ts';
import { hasControlCharacters } from '../common/text.ts';

/**
 * A session's headline figures, read from its runs' stored summaries: its one run's, or for several
 * steps the best step's (best-step.ts: the most requests/s among the completed steps without signs
 * of saturation), as the Sessions page and the CLI's list show it.
 */
export const SessionHeadline = z.object({
  runId: z.number().int(),
  requestsPerSecond: z.number(),
  p99Us: z.number().nullable(),
  /** Requests that did not succeed: non-2xx answers, errors and timeouts (the summary's `failed`). */
  failed: z.number(),
  /** Scheduled requests never sent; null for a run recorded before Benchlab kept the books. */
  notSent: z.number().nullable(),
  /** Runs with a result; above 1 the figures are the best step's. */
  steps: z.number().int(),
  /** The step the figures come from ("c=100, 30 s"). */
  stepLabel: z.string(),
  /** How that step ended: "completed", or (when no step completed) "failed", "stopped"…; absent: completed. */
  stepStatus: z.string().optional(),
  /** When every completed step showed signs of saturation, this step's ("2.3 % failed"); absent or []: none. */
  saturation: z.array(z.string()).optional(),
});
export type SessionHeadline = z.infer<typeof SessionHeadline>;

/** Which step the headline figures are of, in words ("best of 4 steps: c=100, 30 s"); null for a lone completed run. */
export function headlineStepText(headline: SessionHeadline): string | null {
  const status = headline.stepStatus ?? 'completed';
  if (status !== 'completed') return headline.steps > 1 ? `no step completed; ${headline.stepLabel}: ${status}` : status;
  if (headline.steps < 2) return null;
  const saturated = headline.saturation && headline.saturation.length > 0 ? ', every completed step saturated' : '';
  return `best of ${headline.steps} steps${saturated}: ${headline.stepLabel}`;
}

/** How the best step is chosen, for a tooltip or a help line. */
export const BEST_STEP_RULE =
  'The step with the most requests/s among those that completed without signs of saturation (over 1 % failed, not sent or answered late; an open-model step answering under 90 % of its rate). A failed or stopped step is never the best.';

/** Errors + not sent, as the report's headline counts them. */
export function headlineErrors(headline: SessionHeadline): number {
  return headline.failed + (headline.notSent ?? 0);
}

export const LibraryEntry = SessionSummary.extend({
  notes: z.string(),
  templates: z.array(z.string()),
  clientHost: z.string().nullable(),
  serverHost: z.string().nullable(),
  originSessionId: z.number().nullable(),
  /** Where an imported session came from ("wrk's text output"); null or absent for Benchlab's own. */
  importedFrom: z.string().nullable().optional(),
  /** The private database its deployment ran with, in one line (version, port, settings); null or absent: none recorded. */
  database: z.string().nullable().optional(),
  /** Null while the session has no run with a result (a draft, a failed start). */
  headline: SessionHeadline.nullable(),
});
export type LibraryEntry = z.infer<typeof LibraryEntry>;

export const Tag = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters')
  .refine((tag) => !hasControlCharacters(tag) && !tag.includes(','), 'must not contain commas, line breaks or control characters');

export const Tags = z
  .array(Tag)
  .max(20, 'at most 20 tags')
  .transform((tags) => [...new Set(tags)]);

export const Notes = z.string().max(20_000, 'must be at most 20000 characters');

/** Splits "a, b ,c" into tags as the tag field is typed. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))];
}

export interface LibraryFilter {
  text?: string;
  template?: string;
  host?: string;
  tag?: string;
  /** Inclusive dates as yyyy-mm-dd (the date inputs' format), compared in UTC. */
  from?: string;
  to?: string;
}

export function filterLibrary(entries: readonly LibraryEntry[], filter: LibraryFilter): LibraryEntry[] {
  const text = filter.text?.trim().toLowerCase();
  return entries.filter((entry) => {
    if (text && !entry.name.toLowerCase().includes(text) && !entry.notes.toLowerCase().includes(text) && !entry.tags.some((tag) => tag.toLowerCase().includes(text))) return false;
    if (filter.template && !entry.templates.includes(filter.template)) return false;
    if (filter.host && entry.clientHost !== filter.host && entry.serverHost !== filter.host) return false;
    if (filter.tag && !entry.tags.includes(filter.tag)) return false;
    const day = entry.createdAt.slice(0, 10);
    if (filter.from && day < filter.from) return false;
    if (filter.to && day > filter.to) return false;
    return true;
  });
}

/** The values each filter can take, from the entries themselves. */
export function filterChoices(entries: readonly LibraryEntry[]): { templates: string[]; hosts: string[]; tags: string[] } {
  const sorted = (values: Iterable<string | null>) => [...new Set([...values].filter((value): value is string => !!value))].sort();
  return {
    templates: sorted(entries.flatMap((entry) => entry.templates)),
    hosts: sorted(entries.flatMap((entry) => [entry.clientHost, entry.serverHost])),
    tags: sorted(entries.flatMap((entry) => entry.tags)),
  };
}
