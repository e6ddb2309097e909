// Wizard step 6: the plan as it runs — each stage's state and what it is doing (a preset whose keys
// did not all take effect as a warning, with what is in effect) — with Cancel, and
// once it ends, the way on: compare the sessions it made, or look at them in the library.

import { useEffect, useState } from 'react';
import { formatDuration, type PlanState } from '../../../../app/plans/plan.ts';
import { plural } from '../../../../app/common/plural.ts';
import { Banner } from '../../common/Banner.tsx';

const ICONS: Record<string, string> = { pending: '○', running: '◐', done: '✓', failed: '✗', skipped: '–', cancelled: '■' };

export function PlanProgress(props: { plan: PlanState; cancelling: boolean; onCancel: () => void; onCompare: () => void; onSessions: () => void; onLive: () => void; onNew: () => void }) {
  const { plan } = props;
  const running = plan.status === 'running';
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const elapsedS = Math.max(0, ((plan.endedAt ? Date.parse(plan.endedAt) : now) - Date.parse(plan.startedAt)) / 1000);
  return (
    <div className="wizard-step" data-testid="wizard-run" data-status={plan.status} data-plan={plan.id}>
      <div className="run-status">
        <strong>{plan.name}</strong>
        <span className={`badge plan-${plan.status}`} data-testid="plan-status">
          {plan.status}
        </span>
        <span className="muted small" data-testid="plan-elapsed">
          {running ? 'running for' : 'took'} {formatDuration(elapsedS)} (estimated {formatDuration(plan.estimateS)})
        </span>
      </div>
      {plan.message && (
        <Banner tone={plan.status === 'failed' ? 'error' : 'warning'} role="alert" testId="plan-message">
          {plan.message.split('\n').map((line) => (
            <div key={line}>{line}</div>
          ))}
        </Banner>
      )}
      <ol className="plan-stages">
        {plan.stages.map((stage) => {
          // Done but not as asked (a preset key that did not take effect): a warning, never a green ✓.
          const warned = stage.status === 'done' && Boolean(stage.warning);
          return (
            <li key={stage.id} className={warned ? 'stage-warning' : `stage-${stage.status}`} data-testid="plan-stage" data-stage={stage.id} data-status={stage.status} data-warning={warned ? 'true' : undefined}>
              <span className="stage-icon" aria-hidden>
                {warned ? '⚠' : ICONS[stage.status]}
              </span>{' '}
              {stage.label}
              {stage.detail && <div className="state-message">{stage.detail}</div>}
              {warned && (
                <div className="state-message warning-text" data-testid="plan-stage-warning">
                  {stage.warning}
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <div className="actions">
        {running ? (
          <>
            <button type="button" data-testid="plan-live" onClick={props.onLive}>
              Live charts
            </button>
            <button type="button" className="danger" data-testid="plan-cancel" disabled={props.cancelling} onClick={props.onCancel}>
              {props.cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="primary" data-testid="plan-compare" disabled={plan.sessionIds.length < 2} onClick={props.onCompare}>
              {plan.sessionIds.length < 2 ? `Compare (needs 2 sessions; this plan made ${plural(plan.sessionIds.length, 'session')})` : `Compare its ${plural(plan.sessionIds.length, 'session')}`}
            </button>
            <button type="button" data-testid="plan-sessions" onClick={props.onSessions}>
              Sessions library
            </button>
            <button type="button" data-testid="plan-new" onClick={props.onNew}>
              New plan
            </button>
          </>
        )}
      </div>
    </div>
  );
}
