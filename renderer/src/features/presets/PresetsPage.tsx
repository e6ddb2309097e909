// Presets: the built-in and the user's own host tunings, duplicated and edited here, then planned,
// applied, verified and reverted on each connected host.

import { useState } from 'react';
import type { Preset, PresetDefinition } from '../../../../app/presets/presets.ts';
import { formatSetting, SETTING_INFO, shapingValues } from '../../../../app/presets/network-shaping.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { useLoaded } from '../../common/use-loaded.ts';
import { ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';
import { usePendingReverts } from './PendingReverts.tsx';
import { useHostConnections } from '../hosts/use-host-connections.ts';
import { useHosts } from '../hosts/use-hosts.ts';
import { PresetEditor } from './PresetEditor.tsx';
import { PresetHostPanel } from './PresetHostPanel.tsx';

type Editing = { mode: 'none' } | { mode: 'duplicate'; from: Preset } | { mode: 'edit'; preset: Preset };

function definitionOf(preset: Preset): PresetDefinition {
  return {
    name: preset.name,
    description: preset.description,
    limits: preset.limits.map((limit) => ({ ...limit })),
    sysctls: preset.sysctls.map((sysctl) => ({ ...sysctl })),
    network: preset.network ? { ...preset.network } : null,
  };
}

/** `interface auto`, `bandwidth 450 Mbit/s`, … one line each. */
function networkLines(network: NonNullable<Preset['network']>): string[] {
  return [`interface ${network.interface}`, ...shapingValues(network).map(({ setting, value }) => `${SETTING_INFO[setting].label} ${formatSetting(setting, value)}`)];
}

function PresetSummary({ preset }: { preset: Preset }) {
  return (
    <div className="card" data-testid="preset-summary">
      {preset.description && <p className="hint">{preset.description}</p>}
      <div className="info-grid">
        <div>
          <h3>Limits</h3>
          {preset.limits.length === 0 ? (
            <p className="muted">none (Benchlab's limits file is removed)</p>
          ) : (
            <pre className="file-preview">{preset.limits.map((limit) => `${limit.domain} ${limit.type} ${limit.item} ${limit.value}`).join('\n')}</pre>
          )}
        </div>
        <div>
          <h3>Sysctls</h3>
          {preset.sysctls.length === 0 ? <p className="muted">none</p> : <pre className="file-preview">{preset.sysctls.map((sysctl) => `${sysctl.key} = ${sysctl.value}`).join('\n')}</pre>}
        </div>
        <div>
          <h3>Network (tc, egress)</h3>
          {preset.network ? (
            <pre className="file-preview" data-testid="preset-network">
              {networkLines(preset.network).join('\n')}
            </pre>
          ) : (
            <p className="muted">left alone</p>
          )}
        </div>
      </div>
    </div>
  );
}

export function PresetsPage() {
  const api = useApi();
  const { hosts } = useHosts();
  const connections = useHostConnections();
  const { pending, reload: reloadPending } = usePendingReverts();
  const { value: presets, error, setError, reload } = useLoaded((client) => client.presets.list());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>({ mode: 'none' });
  const [confirmRemove, setConfirmRemove] = useState(false);

  const selected = presets?.find((preset) => preset.id === selectedId) ?? presets?.[0] ?? null;
  const connected = (hosts ?? []).filter((host) => connections.get(host.id)?.state === 'connected');

  const save = async (definition: PresetDefinition) => {
    const saved =
      editing.mode === 'edit'
        ? await api.presets.save({ id: editing.preset.id, definition })
        : await api.presets.save({ basedOn: editing.mode === 'duplicate' ? editing.from.id : null, definition });
    setEditing({ mode: 'none' });
    setSelectedId(saved.id);
    reload();
  };

  const remove = async (preset: Preset) => {
    try {
      await api.presets.remove({ id: preset.id });
      setSelectedId(null);
      setConfirmRemove(false);
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <Page
      id="presets"
      title="Presets"
      hint="Limits, sysctls and network shaping (tc) for load clients and servers. Benchlab shows every change before it writes anything, proves what took effect, and puts everything back on Revert."
    >
      <ErrorBanner error={error} testId="presets-error" />
      {presets === null ? (
        <p className="hint">Loading…</p>
      ) : (
        <div className="presets-layout">
          <nav className="preset-list" aria-label="Presets">
            {presets.map((preset) => (
              <button
                key={preset.id}
                type="button"
                className={preset.id === selected?.id ? 'preset-item active' : 'preset-item'}
                data-testid="preset-row"
                data-preset-id={preset.id}
                aria-current={preset.id === selected?.id ? 'true' : undefined}
                onClick={() => {
                  setSelectedId(preset.id);
                  setEditing({ mode: 'none' });
                  setConfirmRemove(false);
                }}
              >
                <span>{preset.name}</span>
                <span className="badge">{preset.builtIn ? 'built in' : 'yours'}</span>
              </button>
            ))}
          </nav>
          {selected && (
            <div className="preset-detail" data-testid="preset-detail" data-preset-id={selected.id}>
              <div className="page-header">
                <h2 data-testid="preset-title">{selected.name}</h2>
                {editing.mode === 'none' && (
                  <div className="actions">
                    <button type="button" data-testid="preset-duplicate" onClick={() => setEditing({ mode: 'duplicate', from: selected })}>
                      Duplicate
                    </button>
                    {!selected.builtIn && (
                      <button type="button" data-testid="preset-edit" onClick={() => setEditing({ mode: 'edit', preset: selected })}>
                        Edit
                      </button>
                    )}
                    {!selected.builtIn &&
                      (confirmRemove ? (
                        <>
                          <button type="button" className="danger" data-testid="preset-remove-confirm" onClick={() => void remove(selected)}>
                            Remove
                          </button>
                          <button type="button" onClick={() => setConfirmRemove(false)}>
                            Keep
                          </button>
                        </>
                      ) : (
                        <button type="button" data-testid="preset-remove" onClick={() => setConfirmRemove(true)}>
                          Remove
                        </button>
                      ))}
                  </div>
                )}
              </div>
              {editing.mode === 'none' ? (
                <PresetSummary preset={selected} />
              ) : (
                <PresetEditor
                  key={editing.mode === 'edit' ? editing.preset.id : `copy-${editing.from.id}`}
                  title={editing.mode === 'edit' ? `Edit ${editing.preset.name}` : `Duplicate of ${editing.from.name}`}
                  initial={editing.mode === 'edit' ? definitionOf(editing.preset) : { ...definitionOf(editing.from), name: `${editing.from.name} (copy)` }}
                  onSave={save}
                  onCancel={() => setEditing({ mode: 'none' })}
                />
              )}
              {editing.mode === 'none' &&
                (connected.length === 0 ? (
                  <div className="empty" data-testid="presets-no-hosts">
                    Connect a host on the Hosts page to plan this preset on it.
                  </div>
                ) : (
                  connected.map((host) => (
                    <PresetHostPanel
                      // A plan belongs to one preset: another preset starts the panel afresh.
                      key={`${host.id} ${selected.id}`}
                      preset={selected}
                      host={host}
                      pendingRevert={pending.some((entry) => entry.hostId === host.id)}
                      onChanged={reloadPending}
                    />
                  ))
                ))}
            </div>
          )}
        </div>
      )}
    </Page>
  );
}
