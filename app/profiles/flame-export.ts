// A stored profile as files other tools read: the folded stacks themselves (flamegraph.pl,
// inferno, speedscope and most flame-graph viewers open them) and speedscope's own JSON file
// format (a "sampled" profile: one sample per distinct stack, weighted by its count), which keeps
// the run's name and sample unit with the stacks.

import { parseFoldedLine } from './flame-graph.ts';

export const PROFILE_EXPORT_FORMATS = ['folded', 'speedscope'] as const;
export type ProfileExportFormat = (typeof PROFILE_EXPORT_FORMATS)[number];

export interface ProfileFile {
  fileName: string;
  mediaType: string;
  content: string;
}

interface SpeedscopeFile {
  $schema: string;
  exporter: string;
  name: string;
  activeProfileIndex: number;
  shared: { frames: Array<{ name: string }> };
  profiles: Array<{ type: 'sampled'; name: string; unit: 'none'; startValue: number; endValue: number; samples: number[][]; weights: number[] }>;
}

/** Folded stacks as a speedscope file: each distinct frame once, each stack a sample weighted by its count. */
export function speedscopeOf(folded: string, name: string): SpeedscopeFile {
  const frames: Array<{ name: string }> = [];
  const index = new Map<string, number>();
  const samples: number[][] = [];
  const weights: number[] = [];
  for (const line of folded.split('\n')) {
    const parsed = parseFoldedLine(line);
    if (!parsed) continue;
    samples.push(
      parsed.frames.map((frame) => {
        let at = index.get(frame);
        if (at === undefined) {
          at = frames.length;
          index.set(frame, at);
          frames.push({ name: frame });
        }
        return at;
      }),
    );
    weights.push(parsed.count);
  }
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return {
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    exporter: 'Benchlab',
    name,
    activeProfileIndex: 0,
    shared: { frames },
    profiles: [{ type: 'sampled', name, unit: 'none', startValue: 0, endValue: total, samples, weights }],
  };
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'profile';
}

/** The file of one run's profile in the chosen format, named after the run. */
export function profileFile(folded: string, runName: string, format: ProfileExportFormat): ProfileFile {
  const base = `${slug(runName)}-profile`;
  if (format === 'speedscope') return { fileName: `${base}.speedscope.json`, mediaType: 'application/json', content: `${JSON.stringify(speedscopeOf(folded, runName))}\n` };
  return { fileName: `${base}.folded.txt`, mediaType: 'text/plain', content: folded.endsWith('\n') || folded === '' ? folded : `${folded}\n` };
}
