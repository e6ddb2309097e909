// One run's CPU profile: a search box, its flame graph, its top frames and the two exports (the
// folded stacks as stored, and speedscope's JSON, both made by `profiles.export`). The picture and
// the table are drawn from the folded text.

import { useMemo, useState } from 'react';
import { frameMatcher, flameTree, searchFrames, shareText, topFrames } from '../../../../app/profiles/flame-graph.ts';
import type { ProfileExportFormat } from '../../../../app/profiles/profiles.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { saveFile } from '../../common/save-file.ts';
import { FlameGraph } from './FlameGraph.tsx';
import { SearchBox } from './SearchBox.tsx';
import { TopFrames } from './TopFrames.tsx';

export function ProfileExports({ runId, testId }: { runId: number; testId: string }) {
  const api = useApi();
  const [error, setError] = useState<string | null>(null);
  const save = async (format: ProfileExportFormat) => {
    setError(null);
    try {
      const file = await api.profiles.export({ runId, format });
      saveFile(file.fileName, file.content, file.mediaType);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <span className="actions">
      <button type="button" data-testid={`${testId}-export-folded`} title="Folded stacks, one line per stack: flamegraph.pl, inferno and speedscope read them" onClick={() => void save('folded')}>
        Folded stacks
      </button>
      <button type="button" data-testid={`${testId}-export-speedscope`} title="speedscope's JSON file format" onClick={() => void save('speedscope')}>
        speedscope JSON
      </button>
      {error && (
        <span className="field-error" role="alert" data-testid={`${testId}-export-error`}>
          {error}
        </span>
      )}
    </span>
  );
}

export function ProfileView({ folded, runId, runName, testId, topCount = 15 }: { folded: string; runId: number; runName: string; testId: string; topCount?: number }) {
  const tree = useMemo(() => flameTree(folded), [folded]);
  const top = useMemo(() => topFrames(tree, topCount), [tree, topCount]);
  const [query, setQuery] = useState('');
  const matches = useMemo(() => frameMatcher(query), [query]);
  const found = useMemo(() => (query.trim() ? searchFrames(tree, query) : null), [tree, query]);
  return (
    <div className="profile-view" data-testid={testId} data-samples={tree.samples}>
      <div className="flame-head">
        <strong>{runName}</strong>
        <span className="muted small">
          {tree.samples.toLocaleString('en-US')} samples
        </span>
        <SearchBox query={query} onChange={setQuery} testId={`${testId}-search`} result={found ? `${found.frames.length} frames, ${shareText(found.share)} of samples` : null} />
        <ProfileExports runId={runId} testId={testId} />
      </div>
      <FlameGraph root={tree.root} testId={`${testId}-flame`} matches={matches} />
      <h4>Top frames by self time</h4>
      <TopFrames frames={top} testId={`${testId}-top`} matches={matches} />
    </div>
  );
}
