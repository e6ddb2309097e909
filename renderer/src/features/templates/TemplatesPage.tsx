// Templates: the catalog of servers under test (broken manifests listed with their reason), a
// deploy target among the connected hosts (the server host by default, never a load client unless
// nothing else is connected), each host's live deployment (the one just asked for beside the
// template's Deploy button, in view; a deploy refused before it began, a plan holding the host say,
// is said there too), and the log terminal where deploy steps and the servers' own logs stream.

import { useEffect, useRef, useState } from 'react';
import { DEFAULT_PORT, Port } from '../../../../app/templates/templates.ts';
import type { Deployment, ServerOccupant } from '../../../../app/templates/templates-contract.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { DeploymentCard } from './DeploymentCard.tsx';
import { LogTerminal } from '../terminals/LogTerminal.tsx';
import { TemplateCard, type DeployRequest } from './TemplateCard.tsx';
import { ReplaceServer } from './ReplaceServer.tsx';
import { describeServer } from '../../../../app/templates/server-words.ts';
import { useDeployments } from '../../common/use-deployments.ts';
import { useServerRoles } from './use-server-host.ts';
import { defaultDeployHost } from './deploy-target.ts';
import { useHostConnections } from '../hosts/use-host-connections.ts';
import { useHosts } from '../hosts/use-hosts.ts';
import { useLoaded } from '../../common/use-loaded.ts';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';
import { EntryOptions } from '../../common/EntryOptions.tsx';

export function TemplatesPage() {
  const api = useApi();
  const { hosts } = useHosts();
  const connections = useHostConnections();
  const deployments = useDeployments();
  /** Each host's last progress as it arrives (not as rendered), to tell which failures a card shows. */
  const latest = useRef(new Map<number, Deployment>());
  useEffect(() => api.subscribe('templates.progress', (deployment) => latest.current.set(deployment.hostId, deployment)), [api]);
  const { value: catalog, error, setError, reload } = useLoaded((client) => client.templates.list());
  const [hostId, setHostId] = useState<number | null>(null);
  const [portText, setPortText] = useState(String(DEFAULT_PORT));
  /** A deploy waiting for the user's word: the host runs a server it would replace. */
  const [asking, setAsking] = useState<{ hostId: number; hostName: string; port: number; request: DeployRequest; occupant: ServerOccupant } | null>(null);

  const connected = (hosts ?? []).filter((host) => connections.get(host.id)?.state === 'connected');
  const roles = useServerRoles();
  // Until one is picked, the server host (the wizard's, else the newest session's) when connected, never a load client if avoidable.
  const target = connected.find((host) => host.id === hostId) ?? defaultDeployHost(connected, roles ?? { serverHostId: null, clientHostIds: [] });
  /** The deploy last asked for: its progress shows in its template's card, beside the button that asked. */
  const [following, setFollowing] = useState<{ hostId: number; templateId: string } | null>(null);
  /** A deploy refused before it began (a plan holds the host, it is busy…): said beside the button that asked. */
  const [refused, setRefused] = useState<{ templateId: string; message: string } | null>(null);
  const port = Port.safeParse(Number(portText));
  const targetBusy = target ? ['checking', 'building', 'uploading', 'starting', 'stopping'].includes(deployments.get(target.id)?.state ?? '') : false;
  const canDeploy = !target ? 'Connect a host first' : !port.success ? 'The port must be between 1 and 65535' : targetBusy ? `${target.name} is busy` : null;

  const send = (hostId: number, request: DeployRequest, port: number, replace?: string) => {
    setError(null);
    setRefused(null);
    setFollowing({ hostId, templateId: request.templateId });
    const asked = new Date().toISOString();
    // A failure during the deploy shows on the host's card (with the log tail); one refused before
    // it began (a plan holds the host, busy, disconnected, bad settings) has no card to show it: it
    // shows on the template's card, beside the Deploy that asked.
    api.templates.deploy({ hostId, ...request, port, ...(replace ? { replace } : {}) }).catch((failure: unknown) => {
      const card = latest.current.get(hostId);
      if (!card || card.updatedAt < asked || !['failed', 'stopped'].includes(card.state)) setRefused({ templateId: request.templateId, message: errorMessage(failure) });
    });
  };
  // A server already running there (this Benchlab's or another's) is replaced only on the user's word.
  const deploy = (request: DeployRequest) => {
    if (!target || !port.success) return;
    setError(null);
    setRefused(null);
    const { id: hostId, name: hostName } = target;
    const chosenPort = port.data;
    api.templates.occupant({ hostId }).then(
      (occupant) => (occupant ? setAsking({ hostId, hostName, port: chosenPort, request, occupant }) : send(hostId, request, chosenPort)),
      (failure: unknown) => setError(errorMessage(failure)),
    );
  };

  const shown = [...deployments.values()].filter((deployment) => hosts?.some((host) => host.id === deployment.hostId));
  const followed = following ? shown.find((deployment) => deployment.hostId === following.hostId && deployment.templateId === following.templateId) : undefined;

  return (
    <Page
      id="templates"
      title="Templates"
      actions={
        <button type="button" onClick={reload} data-testid="templates-reload">
          Reload
        </button>
      }
      hint="Servers under test, deployed to a connected host: Benchlab checks its runtimes, uploads what changed, starts the server under a supervisor and waits until it answers /health. The endpoints every template serves are in server-templates/CONTRACT.md."
    >
      <ErrorBanner error={error} testId="templates-error" />
      {catalog?.broken.map((entry) => (
        <Banner key={entry.folder} tone="error" testId="template-broken">
          <strong>{entry.folder}</strong> cannot be used: {entry.error}
        </Banner>
      ))}
      <div className="card">
        <h2>Deploy to</h2>
        {connected.length === 0 ? (
          <p className="hint" data-testid="templates-no-host">
            No connected host. Connect the server host on the Hosts page first.
          </p>
        ) : (
          <div className="actions">
            <label className="field">
              <span>Host</span>
              <select value={target?.id ?? ''} onChange={(event) => setHostId(Number(event.target.value))} data-testid="templates-host" data-default-known={roles ? 'yes' : 'no'}>
                <EntryOptions entries={connected} />
              </select>
            </label>
            <label className="field">
              <span>Port</span>
              <input value={portText} onChange={(event) => setPortText(event.target.value)} aria-invalid={!port.success} data-testid="templates-port" />
              {/* The reason beside the field, not only in the Deploy buttons' tooltip. */}
              {!port.success && (
                <span className="field-error" role="alert" data-testid="templates-port-error">
                  must be a whole number between 1 and 65535
                </span>
              )}
            </label>
          </div>
        )}
      </div>
      {shown
        .filter((deployment) => deployment !== followed)
        .map((deployment) => (
          <DeploymentCard key={deployment.hostId} deployment={deployment} />
        ))}
      {catalog === null ? (
        <p className="hint">Loading…</p>
      ) : (
        catalog.templates.map((manifest) => (
          <TemplateCard key={manifest.id} manifest={manifest} port={port.success ? port.data : DEFAULT_PORT} canDeploy={asking ? 'Answer the question about the running server first' : canDeploy} onDeploy={deploy}>
            {asking?.request.templateId === manifest.id && (
              <ReplaceServer
                hostName={asking.hostName}
                replacement={describeServer({ templateName: manifest.name, variant: asking.request.variant, port: asking.port })}
                occupant={asking.occupant}
                onKeep={() => setAsking(null)}
                onReplace={(deploymentId) => {
                  setAsking(null);
                  send(asking.hostId, asking.request, asking.port, deploymentId);
                }}
              />
            )}
            {refused?.templateId === manifest.id && <ErrorBanner error={refused.message} testId="template-deploy-refused" />}
            {followed && following?.templateId === manifest.id && <DeploymentCard deployment={followed} scrollIntoView />}
          </TemplateCard>
        ))
      )}
      <h2>Log</h2>
      <LogTerminal />
    </Page>
  );
}
