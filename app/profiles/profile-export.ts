// A stored profile as a file: its folded text as is (flamegraph.pl, speedscope and most viewers read
// it), or speedscope's own JSON file format (one sampled profile: a frame table, each distinct stack
// once with its count as its weight).

import { parseFolded, type Profile, type ProfileExportFile, type ProfileExportFormat } from './profiles.ts';

export function exportProfile(profile: Profile, format: ProfileExportFormat, name: string): ProfileExportFile {
  const base = `benchlab-profile-run-${profile.runId}`;
  if (format === 'folded') return { fileName: `${base}.folded.txt`, mediaType: 'text/plain', content: profile.folded };
  return { fileName: `${base}.speedscope.json`, mediaType: 'application/json', content: `${JSON.stringify(speedscopeDocument(profile.folded, name))}\n` };
}

/** speedscope's file format (schema at speedscope.app/file-format-schema.json), "sampled" kind. */
export function speedscopeDocument(folded: string, name: string): Record<string, unknown> {
  const frames: { name: string }[] = [];
  const index = new Map<string, number>();
  const samples: number[][] = [];
  const weights: number[] = [];
  for (const stack of parseFolded(folded)) {
    samples.push(
      stack.frames.map((frame) => {
        let at = index.get(frame);
        if (at === undefined) {
          at = frames.length;
          index.set(frame, at);
          frames.push({ name: frame });
        }
        return at;
      }),
    );
    weights.push(stack.count);
  }
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return {
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    name,
    exporter: 'benchlab',
    activeProfileIndex: 0,
    shared: { frames },
    profiles: [{ type: 'sampled', name, unit: 'none', startValue: 0, endValue: total, samples, weights }],
  };
}
