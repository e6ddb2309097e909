// Import host entries from ~/.ssh/config (or pasted text): preview, pick, add. Jump hosts map to
// entries by alias, so import a jump host together with the hosts behind it.

import { useEffect, useState } from 'react';
import { candidateHostInput, type SshConfigCandidate } from '../../../../app/hosts/ssh-config.ts';
import type { Host } from '../../../../app/hosts/hosts.ts';
import { plural } from '../../../../app/common/plural.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';

export function ImportSshConfig(props: { existing: Host[]; onDone: () => void }) {
  const api = useApi();
  const [source, setSource] = useState('');
  const [candidates, setCandidates] = useState<SshConfigCandidate[] | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<string[]>([]);

  useEffect(() => {
    api.hosts.importSshConfig({}).then(
      (result) => {
        setSource(result.source);
        setCandidates(result.candidates);
        setWarnings(result.warnings);
        setChosen(new Set(result.candidates.filter((c) => !props.existing.some((h) => h.name === c.name)).map((c) => c.name)));
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [api, props.existing]);

  const importChosen = async () => {
    const byName = new Map(props.existing.map((host) => [host.name.toLowerCase(), host.id]));
    const messages: string[] = [];
    // Jump hosts first, so the hosts behind them can point at their new ids.
    const ordered = (candidates ?? []).filter((c) => chosen.has(c.name)).sort((a, b) => Number(Boolean(a.proxyJump)) - Number(Boolean(b.proxyJump)));
    for (const candidate of ordered) {
      const jumpId = candidate.proxyJump ? byName.get(candidate.proxyJump.toLowerCase()) : undefined;
      try {
        const added = await api.hosts.add(candidateHostInput(candidate, { defaultUser: 'root', jumpHostId: jumpId }));
        byName.set(added.name.toLowerCase(), added.id);
        messages.push(`added ${added.name}${candidate.proxyJump && !jumpId ? ` (jump host "${candidate.proxyJump}" is not a stored host: set it by editing)` : ''}`);
      } catch (failure) {
        messages.push(`${candidate.name}: ${errorMessage(failure)}`);
      }
    }
    setResults(messages);
  };

  return (
    <div className="card" data-testid="ssh-import">
      <h2>Import from {source || '~/.ssh/config'}</h2>
      <ErrorBanner error={error} />
      {warnings.map((warning) => (
        <Banner key={warning} tone="warning">
          {warning}
        </Banner>
      ))}
      {candidates?.length === 0 && <p className="hint">No concrete Host entries found.</p>}
      {candidates && candidates.length > 0 && (
        <table className="table compact">
          <tbody>
            {candidates.map((candidate) => (
              <tr key={candidate.name}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`import ${candidate.name}`}
                    checked={chosen.has(candidate.name)}
                    onChange={(event) => {
                      const next = new Set(chosen);
                      if (event.target.checked) next.add(candidate.name);
                      else next.delete(candidate.name);
                      setChosen(next);
                    }}
                  />
                </td>
                <td className="strong">{candidate.name}</td>
                <td className="mono">
                  {candidate.user ?? '(you)'}@{candidate.address}:{candidate.port}
                </td>
                <td className="mono">{candidate.identityFile ?? 'ssh-agent'}</td>
                <td>{candidate.proxyJump ? `via ${candidate.proxyJump}` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {results.length > 0 && (
        <ul data-testid="ssh-import-results">
          {results.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <div className="actions">
        {results.length === 0 && (
          <button type="button" className="primary" disabled={chosen.size === 0} onClick={() => void importChosen()}>
            Import {plural(chosen.size, 'host')}
          </button>
        )}
        <button type="button" onClick={props.onDone}>
          {results.length > 0 ? 'Done' : 'Cancel'}
        </button>
      </div>
    </div>
  );
}
