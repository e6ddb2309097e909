// The differential flame graph of two runs: every stack of either, each run normalised by its own
// samples, a frame's width the mean of its two shares and its colour the change of its self time
// (red: more, blue: less), beside the frames whose time rose and fell the most.

import { useMemo, useState } from 'react';
import { biggestChanges, deltaColor, deltaText, diffProfiles, type DiffNode, type FrameChange } from '../../../../app/profiles/flame-diff.ts';
import { frameMatcher, flameTree, shareText } from '../../../../app/profiles/flame-graph.ts';
import { FlameGraph } from './FlameGraph.tsx';
import { SearchBox } from './SearchBox.tsx';

function describe(node: DiffNode): string {
  return `${node.name}: self ${shareText(node.before.self)} → ${shareText(node.after.self)} (${deltaText(node.delta)}), total ${shareText(node.before.total)} → ${shareText(node.after.total)}`;
}

function ChangeTable({ changes, testId, caption }: { changes: readonly FrameChange[]; testId: string; caption: string }) {
  return (
    <table className="table compact top-frames" data-testid={testId}>
      <thead>
        <tr>
          <th>{caption}</th>
          <th>Before</th>
          <th>After</th>
          <th>Change</th>
        </tr>
      </thead>
      <tbody>
        {changes.length === 0 && (
          <tr>
            <td colSpan={4} className="muted">
              None
            </td>
          </tr>
        )}
        {changes.map((change) => (
          <tr key={change.name} data-testid={`${testId}-row`} data-name={change.name}>
            <td className="mono frame-name" title={change.name}>
              {change.name}
            </td>
            <td className="num">{shareText(change.before)}</td>
            <td className="num">{shareText(change.after)}</td>
            <td className="num" data-testid={`${testId}-delta`}>
              {deltaText(change.delta)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DiffView({ before, after, testId }: { before: { folded: string; name: string }; after: { folded: string; name: string }; testId: string }) {
  const a = useMemo(() => flameTree(before.folded), [before.folded]);
  const b = useMemo(() => flameTree(after.folded), [after.folded]);
  const diff = useMemo(() => diffProfiles(a, b), [a, b]);
  const changes = useMemo(() => biggestChanges(a, b, 10), [a, b]);
  const [query, setQuery] = useState('');
  const matches = useMemo(() => frameMatcher(query), [query]);
  return (
    <div className="profile-view" data-testid={testId}>
      <div className="flame-head">
        <strong>
          {before.name} → {after.name}
        </strong>
        <span className="muted small">each run's samples as 100 % ({a.samples.toLocaleString('en-US')} and {b.samples.toLocaleString('en-US')}); red: more time in the frame itself, blue: less</span>
        <SearchBox query={query} onChange={setQuery} testId={`${testId}-search`} result={null} />
      </div>
      <FlameGraph root={diff.root} testId={`${testId}-flame`} matches={matches} color={(node) => deltaColor(node.delta)} describe={describe} />
      <div className="flame-changes">
        <ChangeTable changes={changes.up} testId={`${testId}-up`} caption="More time" />
        <ChangeTable changes={changes.down} testId={`${testId}-down`} caption="Less time" />
      </div>
    </div>
  );
}
