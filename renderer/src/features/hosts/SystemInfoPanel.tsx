// A host's system info (host_snapshot): what the benchmark numbers depend on, with a refresh.

import { useCallback, useEffect } from 'react';
import { formatMemory } from '../../../../app/common/byte-size.ts';
import type { SystemInfo } from '../../../../app/hosts/system-info.ts';
import { useApi } from '../../api-context.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { useRequest } from '../../common/use-request.ts';

export function SystemInfoPanel(props: { hostId: number; connected: boolean }) {
  const api = useApi();
  const { busy: loading, answer: info, error, send } = useRequest<SystemInfo | null>();
  const load = useCallback((refresh: boolean) => send(() => api.hosts.systemInfo({ id: props.hostId, refresh })), [api, send, props.hostId]);

  useEffect(() => {
    load(false);
  }, [load, props.connected]);

  const refresh = () => load(true);

  return (
    <div className="system-info" data-testid="system-info">
      <div className="actions">
        <button type="button" disabled={!props.connected || loading} onClick={refresh} data-testid="system-info-refresh">
          {loading ? 'Reading…' : 'Read system info'}
        </button>
        {info && <span className="muted">captured {new Date(info.takenAt).toLocaleString()}</span>}
      </div>
      <ErrorBanner error={error} />
      {!info && !loading && <p className="hint">{props.connected ? 'Not captured yet.' : 'Connect the host to capture its system info.'}</p>}
      {info && (
        <div className="info-grid">
          <dl>
            <dt>Hostname</dt>
            <dd data-testid="info-hostname">{info.hostname}</dd>
            <dt>System</dt>
            <dd>{info.distro}</dd>
            <dt>Kernel</dt>
            <dd className="mono">
              {info.kernel} ({info.arch})
            </dd>
            <dt>CPU</dt>
            <dd>
              {info.cpuCores} × {info.cpuModel}
            </dd>
            <dt>Memory</dt>
            <dd>{formatMemory(info.memoryBytes)}</dd>
            <dt>nofile soft / hard</dt>
            <dd className="mono">
              {info.limits.nofile.soft} / {info.limits.nofile.hard}
            </dd>
            <dt>nproc soft / hard</dt>
            <dd className="mono">
              {info.limits.nproc.soft} / {info.limits.nproc.hard}
            </dd>
            <dt>Runtimes</dt>
            <dd>
              node {info.runtimes.node ?? '—'} · java {info.runtimes.java ?? '—'} · apache {info.runtimes.apache ?? '—'}
            </dd>
          </dl>
          <table className="table compact">
            <tbody>
              {Object.entries(info.sysctls).map(([key, value]) => (
                <tr key={key}>
                  <td className="mono">{key}</td>
                  <td className="mono">{value ?? <span className="muted">not in this kernel</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
