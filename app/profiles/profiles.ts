// The profiles capability's shapes: a CPU profile of the server process per run (one load step),
// stored as folded stacks ("frame;frame;leaf count" lines, root first), with the facts of its
// capture; and the reading of folded text every layer shares (parse, count, serialise).

import { z } from 'zod';

/** How a profile was taken: the JDK's flight recorder, async-profiler, V8's CPU profile, or Linux perf. */
export const PROFILE_TOOLS = ['jfr', 'async-profiler', 'v8', 'perf'] as const;
export const ProfileTool = z.enum(PROFILE_TOOLS);
export type ProfileTool = z.infer<typeof ProfileTool>;

/** The server's runtime, which decides the tool: the JVM, Node, or anything else (native code). */
export const PROFILE_RUNTIMES = ['jvm', 'node', 'native'] as const;
export const ProfileRuntime = z.enum(PROFILE_RUNTIMES);
export type ProfileRuntime = z.infer<typeof ProfileRuntime>;

/**
 * A run's profile: `captured` (stored, readable with profiles.get), `missing` (wanted but not taken:
 * the reason says why, e.g. the tool to install, or that the server had gone), `off` (switched off
 * for the run). Runs from before profiles existed, or still going, have no entry at all.
 */
export const PROFILE_STATUSES = ['captured', 'missing', 'off'] as const;
export const ProfileStatus = z.enum(PROFILE_STATUSES);
export type ProfileStatus = z.infer<typeof ProfileStatus>;

/** The facts of one captured profile. */
export const ProfileFacts = z.object({
  tool: ProfileTool,
  runtime: ProfileRuntime,
  /** Stack samples in the profile (the sum of the folded counts). */
  samples: z.number().int().min(0),
  /** Distinct stacks (folded lines). */
  stacks: z.number().int().min(0),
  /** The sampling interval the tool was asked for, in microseconds; null when the tool chose it. */
  intervalUs: z.number().int().positive().nullable(),
  /** How long the capture ran, in milliseconds. */
  durationMs: z.number().int().min(0),
  /** The server process profiled. */
  pid: z.number().int().positive().nullable(),
  /** Size of the folded text as stored (compressed), in bytes. */
  storedBytes: z.number().int().min(0),
  capturedAt: z.string(),
});
export type ProfileFacts = z.infer<typeof ProfileFacts>;

/** One run's line in a session's profile list. */
export const ProfileEntry = z.object({
  runId: z.number().int().positive(),
  sessionId: z.number().int().positive(),
  ordinal: z.number().int().min(0),
  templateId: z.string(),
  variant: z.string(),
  status: ProfileStatus,
  /** Why it is missing or off, in words (one line; e.g. what to install on the host); null when captured. */
  reason: z.string().nullable(),
  /** The tool used or wanted; null when off or when nothing on the host could profile the runtime. */
  tool: ProfileTool.nullable(),
  runtime: ProfileRuntime.nullable(),
  /** Stack samples of a captured profile, else null. */
  samples: z.number().int().min(0).nullable(),
});
export type ProfileEntry = z.infer<typeof ProfileEntry>;

/** A captured profile: its folded text and its facts. */
export const Profile = z.object({
  runId: z.number().int().positive(),
  sessionId: z.number().int().positive(),
  folded: z.string(),
  facts: ProfileFacts,
});
export type Profile = z.infer<typeof Profile>;

/** A profile export: the folded text, or speedscope's JSON (a flame-graph viewer's own file format). */
export const PROFILE_EXPORT_FORMATS = ['folded', 'speedscope'] as const;
export const ProfileExportFormat = z.enum(PROFILE_EXPORT_FORMATS);
export type ProfileExportFormat = z.infer<typeof ProfileExportFormat>;

export const ProfileExportFile = z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() });
export type ProfileExportFile = z.infer<typeof ProfileExportFile>;

// ── Folded text ─────────────────────────────────────────────────────────────────────────────────

/** One folded line: the frames root first, and how many samples had exactly that stack. */
export interface FoldedStack {
  frames: string[];
  count: number;
}

/**
 * Reads folded text: one "frame;frame;leaf count" per line. Blank lines are skipped; a line without
 * a trailing count, or with a count that is not a whole number, is skipped too (a tool's header).
 */
export function parseFolded(text: string): FoldedStack[] {
  const stacks: FoldedStack[] = [];
  for (const { stack, count } of foldedLines(text)) {
    const frames = stack.split(';').filter((frame) => frame !== '');
    if (frames.length > 0) stacks.push({ frames, count });
  }
  return stacks;
}

/** Each line's stack text ("frame;frame;leaf") and count, by the rules of parseFolded, frames not split. */
export function* foldedLines(text: string): Generator<{ stack: string; count: number }> {
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const space = line.lastIndexOf(' ');
    if (space <= 0) continue;
    const count = Number(line.slice(space + 1));
    if (!Number.isInteger(count) || count <= 0) continue;
    yield { stack: line.slice(0, space), count };
  }
}

/** Each line's leaf frame (the one the sample was in) and count: what self time is counted from, without splitting every frame. */
export function* foldedLeaves(text: string): Generator<{ leaf: string; count: number }> {
  for (const { stack, count } of foldedLines(text)) {
    let end = stack.length;
    while (end > 0 && stack[end - 1] === ';') end--;
    const leaf = stack.slice(stack.lastIndexOf(';', end - 1) + 1, end);
    if (leaf !== '') yield { leaf, count };
  }
}

/** Folded text from stacks: equal stacks merged, lines sorted, each "frames count", ending with a newline. */
export function foldedText(stacks: Iterable<FoldedStack>): string {
  const counts = new Map<string, number>();
  for (const { frames, count } of stacks) {
    if (frames.length === 0 || count <= 0) continue;
    const key = frames.map(cleanFrame).join(';');
    counts.set(key, (counts.get(key) ?? 0) + count);
  }
  const lines = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, count]) => `${key} ${count}`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** A frame as folded text can hold it: no separator, no line break, no trailing spaces. */
export function cleanFrame(frame: string): string {
  const cleaned = frame.replace(/[;\r\n]/g, '_').trim();
  return cleaned === '' ? '[unknown]' : cleaned;
}

/** The samples and distinct stacks of folded text. */
export function foldedCounts(text: string): { samples: number; stacks: number } {
  const stacks = parseFolded(text);
  return { samples: stacks.reduce((sum, stack) => sum + stack.count, 0), stacks: stacks.length };
}
