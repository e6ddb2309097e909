// The frames that took the most time on their own (self samples), with their share of the run's
// samples and the share with them anywhere on the stack: the table beside every flame graph.

import { shareText, type TopFrame } from '../../../../app/profiles/flame-graph.ts';

export function TopFrames({ frames, testId, matches = null }: { frames: readonly TopFrame[]; testId: string; matches?: ((name: string) => boolean) | null }) {
  if (frames.length === 0) return <p className="muted small">No samples.</p>;
  return (
    <table className="table compact top-frames" data-testid={testId}>
      <thead>
        <tr>
          <th>Frame</th>
          <th title="Samples with the frame as leaf: time in the frame itself">Self</th>
          <th title="Samples with the frame anywhere on the stack">Total</th>
        </tr>
      </thead>
      <tbody>
        {frames.map((frame) => (
          <tr key={frame.name} data-testid={`${testId}-row`} data-name={frame.name} className={matches?.(frame.name) ? 'lit' : undefined}>
            <td className="mono frame-name" title={frame.name}>
              {frame.name}
            </td>
            <td className="num" data-testid={`${testId}-self`}>
              {shareText(frame.selfShare)}
            </td>
            <td className="num">{shareText(frame.totalShare)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
