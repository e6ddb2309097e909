// The live state of one host's deployment: stopped, checking, building, uploading, starting,
// ready or failed, the step it is on (and a build's downloads so far), its address, what it runs
// with (runtime, packages, its private database's version, port and settings), the log tail of a
// failure, the runtime install the host's package manager offers (run only when the user
// confirms), Cancel and Stop — which asks first while a run loads that server, naming the run, as
// the page's Replace does.

import { useEffect, useRef, useState } from 'react';
import { describeDatabase } from '../../../../app/templates/recorded-database.ts';
import type { Deployment } from '../../../../app/templates/templates-contract.ts';
import { describeLoads, describeServer } from '../../../../app/templates/server-words.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';

const BUSY = new Set<Deployment['state']>(['checking', 'building', 'uploading', 'starting', 'stopping']);

function InstallOffer({ deployment, offer }: { deployment: Deployment; offer: Deployment['installOffers'][number] }) {
  const api = useApi();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const install = () => {
    setBusy(true);
    api.templates.install({ hostId: deployment.hostId, runtime: offer.runtime }).then(
      () => {
        setResult(`Installed ${offer.runtime}. Deploy again.`);
        setBusy(false);
        setConfirming(false);
      },
      (failure: unknown) => {
        setResult(errorMessage(failure));
        setBusy(false);
      },
    );
  };
  return (
    <div className="install-offer" data-testid={`install-offer-${offer.runtime}`}>
      {confirming ? (
        <>
          <span>
            Run as root on {deployment.hostName}: <code className="mono">{offer.command}</code>
          </span>
          <div className="actions">
            <button type="button" className="primary" disabled={busy} onClick={install} data-testid="install-confirm">
              {busy ? 'Installing…' : 'Run it'}
            </button>
            <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} data-testid="install-start">
          Install {offer.runtime} with {offer.packageManager}…
        </button>
      )}
      {result && <div className="hint">{result}</div>}
    </div>
  );
}

/** `scrollIntoView`: brought into view when it appears (the deploy just asked for, beside its button). */
export function DeploymentCard({ deployment, scrollIntoView = false }: { deployment: Deployment; scrollIntoView?: boolean }) {
  const api = useApi();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (scrollIntoView) box.current?.scrollIntoView({ block: 'nearest' });
  }, [scrollIntoView]);
  const [error, setError] = useState<string | null>(null);
  /** A Stop waiting for the user's word: runs load the server (their names, and the deployment to name). */
  const [stopping, setStopping] = useState<{ runs: string[]; deploymentId: string | null } | null>(null);
  const busy = BUSY.has(deployment.state);
  const act = (action: Promise<unknown>) => {
    setError(null);
    action.catch((failure: unknown) => setError(errorMessage(failure)));
  };
  // Taking a server from a run ends that run failed: asked first, naming the run; otherwise at once.
  const stop = () => {
    setError(null);
    api.templates.occupant({ hostId: deployment.hostId }).then(
      (occupant) => {
        if (occupant && occupant.runs.length > 0) setStopping({ runs: occupant.runs, deploymentId: occupant.deploymentId });
        else act(api.templates.stop({ hostId: deployment.hostId }));
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  };
  const confirmStop = (deploymentId: string | null) => {
    setStopping(null);
    act(api.templates.stop({ hostId: deployment.hostId, ...(deploymentId ? { deploymentId } : {}) }));
  };
  return (
    <div className="card" data-testid="deployment" data-host-name={deployment.hostName} ref={box}>
      <div className="page-header">
        <h2>
          {deployment.hostName}: {deployment.templateName} <span className="muted">({deployment.variant}, port {deployment.port})</span>
        </h2>
        <div className="actions">
          {deployment.state !== 'stopping' && busy && (
            <button type="button" onClick={() => act(api.templates.cancel({ hostId: deployment.hostId }))} data-testid="deployment-cancel">
              Cancel
            </button>
          )}
          {!busy && deployment.state !== 'stopped' && (
            <button type="button" onClick={stop} disabled={stopping !== null} data-testid="deployment-stop">
              Stop
            </button>
          )}
        </div>
      </div>
      {stopping && (
        <Banner tone="warning" className="confirm" testId="deployment-stop-confirm">
          <span data-testid="deployment-stop-question">
            {deployment.hostName} runs {describeServer(deployment)}
            {describeLoads(stopping.runs)}. Stop it? {stopping.runs.length === 1 ? 'That run loses its server and ends failed.' : 'Those runs lose their server and end failed.'}
          </span>
          <div className="actions">
            <button type="button" className="danger" data-testid="deployment-stop-yes" onClick={() => confirmStop(stopping.deploymentId)}>
              Stop it
            </button>
            <button type="button" data-testid="deployment-stop-keep" onClick={() => setStopping(null)}>
              Keep it running
            </button>
          </div>
        </Banner>
      )}
      <div className="deployment-state">
        <span className={`badge ${deployment.state}`} data-testid="deployment-state">
          {deployment.state}
        </span>
        {deployment.step && (
          <span data-testid="deployment-step">
            Step {deployment.step.index} of {deployment.step.total}: {deployment.step.label}
            {deployment.step.detail ? ` — ${deployment.step.detail}` : ''}
          </span>
        )}
        {deployment.step?.progress && (
          <span className="muted" data-testid="deployment-progress">
            {deployment.step.progress}
          </span>
        )}
        {deployment.state === 'ready' && deployment.url && (
          <span data-testid="deployment-url">
            serving at <span className="mono">{deployment.url}</span>
            {deployment.readyMs !== null && <span className="muted"> (ready {(deployment.readyMs / 1000).toFixed(1)} s after Deploy)</span>}
          </span>
        )}
        {deployment.components && Object.keys(deployment.components).length > 0 && (
          <span className="muted" data-testid="deployment-components">
            runs with{' '}
            {Object.entries(deployment.components)
              .map(([name, version]) => `${name} ${version}`)
              .join(', ')}
          </span>
        )}
        {deployment.database && (
          <span className="muted" data-testid="deployment-database" title={`database ${deployment.database.name}${deployment.database.user ? `, owned by ${deployment.database.user}` : ', no authentication (loopback only)'}`}>
            database {describeDatabase(deployment.database)}
          </span>
        )}
      </div>
      {deployment.message && (
        <p className={deployment.state === 'failed' ? 'field-error' : 'hint'} data-testid="deployment-message">
          {deployment.message}
        </p>
      )}
      {deployment.installOffers.map((offer) => (
        <InstallOffer key={offer.runtime} deployment={deployment} offer={offer} />
      ))}
      {deployment.logTail.length > 0 && (
        <pre className="file-preview" data-testid="deployment-log-tail">
          {deployment.logTail.join('\n')}
        </pre>
      )}
      <ErrorBanner error={error} />
    </div>
  );
}
