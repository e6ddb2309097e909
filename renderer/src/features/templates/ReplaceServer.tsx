// Asked before a deploy would take down the server running on the host (as the wizard's "Stop it…?"
// asks): which server, who holds it, and the runs loading it now. Replace names that very
// deployment to the back end, so a server that changed meanwhile is never the one taken down. While
// a plan holds the host no deploy can go ahead, whatever the answer: the banner says so instead of asking.

import type { ServerOccupant } from '../../../../app/templates/templates-contract.ts';
import { describeHolder, describeHostHeld, describeLoads, describeServer } from '../../../../app/templates/server-words.ts';
import { Banner } from '../../common/Banner.tsx';

export interface ReplaceServerProps {
  hostName: string;
  /** What would run in its place: "Express (sync) on port 8081". */
  replacement: string;
  occupant: ServerOccupant;
  onReplace: (deploymentId: string) => void;
  onKeep: () => void;
}

export function ReplaceServer(props: ReplaceServerProps) {
  const { occupant } = props;
  const who = occupant.startedBy === 'this' ? 'deployed from this Benchlab' : describeHolder(occupant.holder, occupant.heartbeatAgeSeconds);
  const id = occupant.heldBy === null ? occupant.deploymentId : null;
  const why = occupant.heldBy !== null
    ? `${describeHostHeld(occupant.heldBy, `${props.replacement} can be deployed`)}; nothing was touched.`
    : id
      ? `Replace it with ${props.replacement}? Whoever uses it loses it.`
      : 'It cannot be named to replace it: stop it from the Benchlab that runs it.';
  return (
    <Banner tone="warning" className="confirm" testId="template-replace" data-started-by={occupant.startedBy} data-held={occupant.heldBy === null ? undefined : 'yes'}>
      <span data-testid="template-replace-question">
        {props.hostName} runs {describeServer(occupant)}, {who}
        {describeLoads(occupant.runs)}. {why}
      </span>
      <div className="actions">
        {id && (
          <button type="button" className="danger" data-testid="template-replace-confirm" onClick={() => props.onReplace(id)}>
            Replace it
          </button>
        )}
        <button type="button" data-testid="template-replace-cancel" onClick={props.onKeep}>
          {id ? 'Keep it' : 'OK'}
        </button>
      </div>
    </Banner>
  );
}
