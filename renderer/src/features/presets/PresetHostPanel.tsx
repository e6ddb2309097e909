// One preset against one connected host: the plan (current → new for every key, the network side,
// and the files with their new content), an explicit confirmation, live progress, the verification of each key,
// and revert.

import { useEffect, useState } from 'react';
import type { Host } from '../../../../app/hosts/hosts.ts';
import type { PresetPlan } from '../../../../app/presets/preset-plan.ts';
import type { ApplyResult, PresetProgress, RevertResult } from '../../../../app/presets/presets-contract.ts';
import type { Preset } from '../../../../app/presets/presets.ts';
import { plural } from '../../../../app/common/plural.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';
import { TableHead } from '../../common/TableHead.tsx';
import { NetworkPlanView } from './NetworkPlanView.tsx';

type Stage =
  | { kind: 'idle' }
  | { kind: 'planning' }
  | { kind: 'planned'; plan: PresetPlan; confirming: boolean }
  | { kind: 'applying'; plan: PresetPlan }
  | { kind: 'applied'; result: ApplyResult }
  | { kind: 'reverting' }
  | { kind: 'reverted'; result: RevertResult };

const CHANGE_LABELS: Record<string, string> = {
  change: 'will change',
  same: 'already set',
  missing: 'key not in this kernel',
  unwritable: 'cannot change here',
};

function Value({ text }: { text: string | null }) {
  return text === null ? <span className="muted">not set</span> : <span className="mono">{text}</span>;
}

/** The notes under a plan, a verification or a revert, one paragraph each. */
function Notes({ notes, testId }: { notes: readonly string[]; testId?: string }) {
  return notes.map((note) => (
    <p key={note} className="hint" data-testid={testId}>
      {note}
    </p>
  ));
}

/** One key of the plan: its value now (with what says so), the new one, and the change with why. */
function PlanRow(props: { name: string; current: string | null; currentNotes?: Array<string | null>; next: string | null; change: string; note?: string | null }) {
  return (
    <tr data-testid="plan-row" data-key={props.name} data-change={props.change}>
      <td className="mono">{props.name}</td>
      <td>
        <Value text={props.current} />
        {props.currentNotes?.map((note, index) => note && <div key={index} className="state-message">{note}</div>)}
      </td>
      <td>
        <Value text={props.next} />
      </td>
      <td>
        <span className={`badge change-${props.change}`}>{CHANGE_LABELS[props.change]}</span>
        {props.note && <div className="state-message">{props.note}</div>}
      </td>
    </tr>
  );
}

/** A preset's plan on one host: each key's current and new value, the files, and the notes. */
export function PresetPlanView({ plan }: { plan: PresetPlan }) {
  return (
    <div data-testid="plan">
      <table className="table compact" data-testid="plan-table">
        <TableHead columns={['Key', 'Current', 'New', 'Change']} />
        <tbody>
          {plan.sysctls.map((row) => (
            <PlanRow key={`sysctl ${row.key}`} name={row.key} current={row.current} next={row.next} change={row.change} note={row.change !== 'missing' ? row.reason : null} />
          ))}
          {plan.limits.map((row) => (
            <PlanRow
              key={`limit ${row.label}`}
              name={row.label}
              current={row.current}
              currentNotes={[row.currentSource, row.loginNow ? `${plan.login} has ${row.loginNow} now` : null]}
              next={row.next}
              change={row.change}
              note={row.note}
            />
          ))}
        </tbody>
      </table>
      {plan.network && <NetworkPlanView network={plan.network} />}
      <h3>Files</h3>
      {plan.files.map((file) => (
        <details key={file.path} className="file-plan" data-testid="plan-file" data-path={file.path} data-action={file.action} open={file.action !== 'unchanged'}>
          <summary>
            <span className="mono">{file.path}</span> — {file.action === 'unchanged' ? 'unchanged' : file.action === 'create' ? 'created' : file.action === 'remove' ? 'removed' : 'replaced'}
          </summary>
          {file.action === 'replace' && file.current !== null && (
            <>
              <div className="muted">now:</div>
              <pre className="file-preview old">{file.current}</pre>
              <div className="muted">after:</div>
            </>
          )}
          {file.next !== null ? <pre className="file-preview">{file.next}</pre> : file.current !== null && <pre className="file-preview old">{file.current}</pre>}
        </details>
      ))}
      <p className="hint">
        Before anything changes, the previous values go to Benchlab's journal and to <span className="mono">{plan.restoreFile.path}</span> on the host.
      </p>
      <Notes notes={plan.notes} testId="plan-note" />
    </div>
  );
}

function Verification({ result }: { result: ApplyResult }) {
  return (
    <div data-testid="verification">
      <p className="strong" data-testid="apply-outcome">
        {result.outcome === 'no changes' ? 'No changes: the host already matches this preset.' : 'Applied. Each key as verified on the host:'}
      </p>
      <table className="table compact">
        <TableHead columns={['Key', 'Expected', 'On the host', 'Status']} />
        <tbody>
          {result.verdicts.map((verdict) => (
            <tr key={`${verdict.kind} ${verdict.key}`} data-testid="verdict-row" data-key={verdict.key} data-status={verdict.status}>
              <td className="mono">{verdict.key}</td>
              <td className="mono">{verdict.expected}</td>
              <td>
                <Value text={verdict.observed} />
              </td>
              <td>
                <span className={`badge verdict-${verdict.status.replace(' ', '-')}`}>{verdict.status}</span>
                {verdict.reason && <div className="state-message">{verdict.reason}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Notes notes={result.notes} />
    </div>
  );
}

function RevertView({ result }: { result: RevertResult }) {
  return (
    <div data-testid="revert-result" data-outcome={result.outcome}>
      <p className="strong">
        {result.outcome === 'reverted' ? 'Reverted: the host is back to what it held before Benchlab.' : result.outcome === 'nothing to revert' ? 'Nothing to revert.' : 'The revert is incomplete.'}
      </p>
      {(result.sysctls.length > 0 || result.files.length > 0 || result.network) && (
        <table className="table compact">
          <tbody>
            {result.files.map((file) => (
              <tr key={file.path} data-testid="revert-row">
                <td className="mono">{file.path}</td>
                <td>{file.action === 'remove' ? 'removed' : file.action === 'write' ? 'restored' : 'unchanged'}</td>
                <td>{file.restored ? 'as before' : 'differs'}</td>
              </tr>
            ))}
            {result.sysctls.map((row) => (
              <RevertedValueRow key={row.key} what={row.key} value={row} />
            ))}
            {result.network && <RevertedValueRow what={`${result.network.interface} root qdisc`} value={result.network} network={result.network.interface} />}
          </tbody>
        </table>
      )}
      <Notes notes={result.notes} />
    </div>
  );
}

export function PresetHostPanel(props: { preset: Preset; host: Host; pendingRevert: boolean; onChanged: () => void }) {
  const { preset, host } = props;
  const api = useApi();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<PresetProgress[]>([]);

  useEffect(
    () =>
      api.subscribe('presets.progress', (event) => {
        if (event.hostId === host.id) setProgress((current) => [...current, event]);
      }),
    [api, host.id],
  );

  const plan = async () => {
    setStage({ kind: 'planning' });
    setError(null);
    try {
      setStage({ kind: 'planned', plan: await api.presets.plan({ presetId: preset.id, hostId: host.id }), confirming: false });
    } catch (failure) {
      setError(errorMessage(failure));
      setStage({ kind: 'idle' });
    }
  };

  const apply = async (planned: PresetPlan) => {
    setStage({ kind: 'applying', plan: planned });
    setProgress([]);
    setError(null);
    try {
      setStage({ kind: 'applied', result: await api.presets.apply({ presetId: preset.id, hostId: host.id, planId: planned.planId }) });
    } catch (failure) {
      setError(errorMessage(failure));
      setStage({ kind: 'planned', plan: planned, confirming: false });
    } finally {
      props.onChanged();
    }
  };

  const revert = async () => {
    setStage({ kind: 'reverting' });
    setProgress([]);
    setError(null);
    try {
      setStage({ kind: 'reverted', result: await api.presets.revert({ hostId: host.id }) });
    } catch (failure) {
      setError(errorMessage(failure));
      setStage({ kind: 'idle' });
    } finally {
      props.onChanged();
    }
  };

  const busy = stage.kind === 'planning' || stage.kind === 'applying' || stage.kind === 'reverting';
  return (
    <div className="card" data-testid="preset-host" data-host-name={host.name}>
      <div className="page-header">
        <h2>
          {host.name} <span className="muted">({host.user})</span>
        </h2>
        <div className="actions">
          <button type="button" data-testid="preset-plan" disabled={busy} onClick={() => void plan()}>
            {stage.kind === 'planning' ? 'Planning…' : stage.kind === 'idle' ? 'Plan' : 'Plan again'}
          </button>
          {(props.pendingRevert || stage.kind === 'applied') && (
            <button type="button" className="danger" data-testid="preset-revert" disabled={busy} onClick={() => void revert()}>
              {stage.kind === 'reverting' ? 'Reverting…' : 'Revert'}
            </button>
          )}
        </div>
      </div>
      <ErrorBanner error={error} testId="preset-error" />
      {stage.kind === 'idle' && !error && <p className="hint">Plan first: it shows every change before anything is written.</p>}
      {stage.kind === 'planned' && (
        <>
          <PresetPlanView plan={stage.plan} />
          {stage.confirming ? (
            <Banner tone="warning" className="confirm" testId="apply-confirmation">
              <p>
                {stage.plan.noChanges
                  ? `${host.name} already matches "${stage.plan.presetName}": applying changes nothing and verifies what is in effect.`
                  : `Apply "${stage.plan.presetName}" to ${host.name}? ${plural(stage.plan.changes, 'change')}: the files above are written${stage.plan.network?.command ? ', the sysctls set live and the network shaped with tc' : ' and the sysctls set live'}. Revert puts everything back.`}
              </p>
              <div className="actions">
                <button type="button" className="primary" data-testid="preset-apply-confirm" onClick={() => void apply(stage.plan)}>
                  Apply now
                </button>
                <button type="button" data-testid="preset-apply-cancel" onClick={() => setStage({ ...stage, confirming: false })}>
                  Cancel
                </button>
              </div>
            </Banner>
          ) : (
            <div className="actions">
              <button type="button" className="primary" data-testid="preset-apply" onClick={() => setStage({ ...stage, confirming: true })}>
                {stage.plan.noChanges ? 'Apply (no changes)…' : 'Apply…'}
              </button>
            </div>
          )}
        </>
      )}
      {(stage.kind === 'applying' || stage.kind === 'reverting') && (
        <ol className="progress" data-testid="preset-progress">
          {progress.map((event) => (
            <li key={`${event.at} ${event.step}`}>{event.message}</li>
          ))}
        </ol>
      )}
      {stage.kind === 'applied' && <Verification result={stage.result} />}
      {stage.kind === 'reverted' && <RevertView result={stage.result} />}
    </div>
  );
}

/** One value a revert put back (a sysctl, the shaped interface's qdisc): what it is, its original, how it went. */
function RevertedValueRow(props: { what: string; value: { original: string; status: string; reason: string | null }; network?: string }) {
  return (
    <tr data-testid="revert-row" data-network={props.network}>
      <td className="mono">{props.what}</td>
      <td className="mono">{props.value.original}</td>
      <td>
        {props.value.status}
        {props.value.reason && <div className="state-message">{props.value.reason}</div>}
      </td>
    </tr>
  );
}
