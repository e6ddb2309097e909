// The server already running on the plan's server host, said before the plan fails on it: what runs
// there and who started it, and Stop it — after a confirmation, since whoever uses it loses it. A
// server another plan holds the host for is not offered to stop: that plan's runs would lose it, and
// this plan starts there once that one has ended.

import { useState } from 'react';
import type { ServerOccupant } from '../../../../app/templates/templates-contract.ts';
import { describeHostHeld, describeLoads, describeServer } from '../../../../app/templates/server-words.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { Banner } from '../../common/Banner.tsx';

function describe(occupant: ServerOccupant, hostName: string): string {
  const who =
    occupant.startedBy === 'this'
      ? `started from this Benchlab (Templates page${occupant.state === 'ready' ? '' : `, ${occupant.state}`})`
      : `driven by another Benchlab (${occupant.holder ?? 'another window or benchlab run'}; heartbeat ${occupant.heartbeatAgeSeconds ?? '?'} s ago)`;
  const then = occupant.heldBy === null ? 'The plan deploys there: stop it first.' : `${describeHostHeld(occupant.heldBy, 'this plan can run there')}.`;
  return `${hostName} already runs ${describeServer(occupant)}, ${who}${describeLoads(occupant.runs)}. ${then}`;
}

export function ServerOccupantBanner(props: { hostId: number; hostName: string; occupant: ServerOccupant; onStopped: () => void }) {
  const api = useApi();
  const [stage, setStage] = useState<'shown' | 'confirming' | 'stopping'>('shown');
  const [error, setError] = useState<string | null>(null);
  const stop = async () => {
    setStage('stopping');
    setError(null);
    try {
      // Names the server shown: the back end stops another Benchlab's server only when asked for that one.
      await api.templates.stop({ hostId: props.hostId, ...(props.occupant.deploymentId ? { deploymentId: props.occupant.deploymentId } : {}) });
      props.onStopped();
    } catch (failure) {
      setError(`Could not stop it: ${errorMessage(failure)}`);
    } finally {
      setStage('shown');
    }
  };
  return (
    <Banner tone="warning" className="confirm" testId="wizard-occupant" data-started-by={props.occupant.startedBy} data-held={props.occupant.heldBy === null ? undefined : 'yes'}>
      <span>{describe(props.occupant, props.hostName)}</span>
      {error && <div className="field-error">{error}</div>}
      <div className="actions">
        {props.occupant.heldBy !== null ? null : stage === 'confirming' ? (
          <>
            <span>Stop {props.occupant.templateName} on {props.hostName}? Whoever uses it loses it.</span>
            <button type="button" className="danger" data-testid="wizard-occupant-stop-confirm" onClick={() => void stop()}>
              Stop it
            </button>
            <button type="button" data-testid="wizard-occupant-stop-cancel" onClick={() => setStage('shown')}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" data-testid="wizard-occupant-stop" disabled={stage === 'stopping'} onClick={() => setStage('confirming')}>
            {stage === 'stopping' ? 'Stopping…' : 'Stop it…'}
          </button>
        )}
      </div>
    </Banner>
  );
}
