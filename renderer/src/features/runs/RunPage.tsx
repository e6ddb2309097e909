// The Run page: a load profile form, Start and Stop, live charts (requests/s, latency percentiles
// on a linear or log axis, errors, client and server CPU, server memory, network, with step
// markers), the live summary table in the seeds' columns, the bottleneck banner (client-bound,
// server-bound or neither, with the evidence), which agent has fallen silent since when, and the
// load engine asked for and the one that runs.

import { useMemo, useState } from 'react';
import { parseTarget, profileFieldErrors } from '../../../../app/runs/load-profile.ts';
import { deploymentServing } from '../../../../app/runs/run-deployment.ts';
import type { EngineChoice } from '../../../../app/runs/engine-choice.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';
import { NoiseFindings } from './NoiseFindings.tsx';
import { SessionDashboard } from './SessionDashboard.tsx';
import { SilenceBanner } from './SilenceBanner.tsx';
import { useDeployments } from '../../common/use-deployments.ts';
import { useHostConnections } from '../hosts/use-host-connections.ts';
import { useHosts } from '../hosts/use-hosts.ts';
import { usePreflight } from './use-preflight.ts';
import { useLiveRun } from './use-live-run.ts';
import { ProfileForm } from './ProfileForm.tsx';
import { EngineField } from './EngineField.tsx';
import { EngineLabel } from './EngineLabel.tsx';
import { RunHostFields } from './RunHostFields.tsx';
import { SessionNameField } from './SessionNameField.tsx';
import { clientPickErrors, runClientsOf } from './client-picks.ts';
import { useClientPicks } from './use-client-picks.ts';
import { stepMarkers } from './run-charts.ts';
import { fieldOfError, profileOf, type ProfileDraft } from './profile-draft.ts';
import { DEFAULT_RUN_DRAFT, defaultRunName, restoreRunDraft } from './run-draft.ts';
import { useSavedDraft } from '../../common/use-saved-draft.ts';

const ACTIVE = new Set(['starting', 'running', 'pausing', 'stopping']);

export function RunPage() {
  const api = useApi();
  const connections = useHostConnections();
  const deployments = useDeployments();
  const { run, buffer, version, setRun } = useLiveRun();
  const { hosts: hostList, error: hostsError } = useHosts();
  const hosts = hostList ?? [];
  // The form (server, profile, engine, name) is kept by the back end across navigation and reloads.
  const form = useSavedDraft('run', restoreRunDraft);
  const { profile: draft, serverHostId, engine, name } = form.draft ?? DEFAULT_RUN_DRAFT;
  const setServerHostId = (id: number | null) => form.update({ serverHostId: id });
  const setEngine = (choice: EngineChoice) => form.update({ engine: choice });
  const [clientPicks, setClientPicks] = useClientPicks();
  const clientHostId = clientPicks[0]?.hostId ?? null;
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<'starting' | 'stopping' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [logLatency, setLogLatency] = useState(false);

  const running = run !== null && ACTIVE.has(run.status);
  const targetPort = useMemo(() => {
    const parsed = parseTarget(draft.target);
    return typeof parsed === 'string' ? null : parsed.port;
  }, [draft.target]);
  // The hosts are read for noise before a start, never during one (the check itself takes CPU).
  const preflight = usePreflight(clientHostId && !running ? { clientHostId, clientHostIds: clientPicks.flatMap((pick) => (pick.hostId === null ? [] : [pick.hostId])), serverHostId, port: serverHostId ? targetPort : null } : null);
  const fieldErrors = useMemo(() => {
    const errors: Record<string, string> = {};
    for (const [path, message] of Object.entries(profileFieldErrors(profileOf(draft)))) errors[fieldOfError(path, draft)] ??= message;
    Object.assign(errors, clientPickErrors(clientPicks));
    if (name.trim().length > 200) errors.name = 'must be at most 200 characters';
    return errors;
  }, [draft, clientPicks, name]);
  const shownErrors = Object.fromEntries(Object.entries(fieldErrors).filter(([field]) => submitted || touched.has(field)));

  const updateDraft = (change: Partial<ProfileDraft>) => {
    form.update((current) => ({ profile: { ...current.profile, ...change } }));
    setTouched((current) => new Set([...current, ...Object.keys(change)]));
    setError(null);
  };

  const start = async () => {
    setSubmitted(true);
    setError(null);
    const clients = runClientsOf(clientPicks);
    if (Object.keys(fieldErrors).length > 0 || !clients) return;
    setBusy('starting');
    try {
      // The deployment picked above, or ready on the chosen server at the target's port, labels the runs.
      const deployment = deploymentServing([...deployments.values()], serverHostId, draft.target);
      const sessionName = name.trim() || defaultRunName(draft);
      setRun(await api.runs.start({ ...clients, serverHostId, profile: profileOf(draft), engine, ...(sessionName ? { name: sessionName } : {}), ...(deployment ? { deployment } : {}) }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  const stop = async () => {
    if (!run) return;
    setBusy('stopping');
    try {
      setRun(await api.runs.stop({ sessionId: run.sessionId }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  const markers = useMemo(() => stepMarkers(run?.steps ?? []), [run]);
  const hostChoices = hosts.map((host) => ({ host, connected: connections.get(host.id)?.state === 'connected' || host.kind === 'local' }));
  const readyDeployments = [...deployments.values()].filter((deployment) => deployment.state === 'ready' && deployment.url);

  return (
    <Page
      id="run"
      title="Run"
      wide
      hint="Drive load from the client host against a server, live. Every second is stored as it arrives; results add HDR histograms, never average percentiles."
      actions={
        <div className="actions">
          <button type="button" className="primary" data-testid="run-start" disabled={running || busy !== null} onClick={() => void start()}>
            {busy === 'starting' ? 'Starting…' : 'Start'}
          </button>
          <button type="button" className="danger" data-testid="run-stop" disabled={!running || busy === 'stopping'} onClick={() => void stop()}>
            {busy === 'stopping' ? 'Stopping…' : 'Stop'}
          </button>
        </div>
      }
    >
      <ErrorBanner error={error ?? hostsError} testId="run-error" />
      <div className="card" data-testid="run-form" data-draft={form.draft === null ? 'loading' : form.saved ? 'saved' : 'saving'}>
        <ProfileForm draft={draft} errors={shownErrors} disabled={running || busy !== null} withTarget onDraft={updateDraft}>
          <SessionNameField value={name} placeholder={defaultRunName(draft) ?? 'named after the target and its steps'} error={shownErrors.name} onChange={(text) => form.update({ name: text })} />
          <RunHostFields
            errors={shownErrors}
            hosts={hostChoices}
            clientPicks={clientPicks}
            serverHostId={serverHostId}
            deployments={readyDeployments}
            deploymentHostId={readyDeployments.find((deployment) => deployment.hostId === serverHostId && deployment.url?.replace(/\/$/, '') === draft.target.trim().replace(/\/$/, ''))?.hostId ?? null}
            disabled={running || busy !== null}
            onTarget={(target) => updateDraft({ target })}
            onClientPicks={(picks) => {
              setClientPicks(picks);
              setTouched((current) => new Set([...current, 'clientHostId', ...picks.flatMap((_, index) => [`client-${index}`, `client-weight-${index}`])]));
            }}
            onHosts={(change) => {
              setServerHostId(change.serverHostId);
              setTouched((current) => new Set([...current, ...Object.keys(change)]));
            }}
          />
          <EngineField value={engine} disabled={running || busy !== null} testId="run-engine-choice" onChange={setEngine} />
        </ProfileForm>
      </div>
      {/* With a session shown, its dashboard holds the one hosts box: this pre-flight and its start's reading. */}
      {!running && !run && <NoiseFindings title="Pre-flight" readings={[{ when: 'next', ...preflight }]} onRecheck={preflight.recheck} testId="run-preflight" />}
      {run && (
        <>
          <div className="run-status" data-testid="run-status" data-status={run.status} data-session={run.sessionId}>
            <strong>{run.name}</strong>
            <span className={`badge run-${run.status}`} data-testid="run-state">
              {run.status}
            </span>
            <EngineLabel engine={run.engine} testId="run-engine" />
            {run.currentStep !== null && run.steps.length > 1 && (
              <span className="muted">
                step {run.currentStep + 1} of {run.steps.length}
              </span>
            )}
            <span className="muted small">{run.latencyMeaning}</span>
            {run.calibration && (
              <span className="muted small" data-testid="run-calibration">
                {run.calibration}
              </span>
            )}
          </div>
          {running && <SilenceBanner run={run} hosts={hosts} connections={connections} />}
          {run.message && (
            <Banner tone={run.status === 'failed' ? 'error' : 'warning'} role="alert" testId="run-message">
              {run.message}
            </Banner>
          )}
          <SessionDashboard
            sessionId={run.sessionId}
            steps={run.steps}
            clients={run.clients}
            bucketsMs={run.profile.bucketsMs}
            model={run.profile.load.model}
            buffer={buffer}
            version={version}
            markers={markers}
            noiseTestId="run-session-noise"
            preflight={running ? undefined : { reading: { when: 'next', ...preflight }, recheck: preflight.recheck }}
            logLatency={{ on: logLatency, set: setLogLatency }}
          />
        </>
      )}
    </Page>
  );
}
