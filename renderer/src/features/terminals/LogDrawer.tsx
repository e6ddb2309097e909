// The log drawer: the log terminal (the backlog of each deploy, build and run, then what happens)
// in a pane across the bottom of the window, opened from the status bar on any page. It stays open
// across pages, and across a reload of the window (the choice is kept for the window's session).
// A topic picker narrows it to one deploy, build or run.

import { useCallback, useEffect, useState } from 'react';
import { logTopic } from '../../../../app/common/log-contract.ts';
import { useApi } from '../../api-context.tsx';
import { LogTerminal } from './LogTerminal.tsx';

const OPEN_KEY = 'benchlab.logDrawerOpen';

/** Whether the drawer is open, and the toggle; kept in sessionStorage so a reload keeps it. */
export function useLogDrawer(): [boolean, () => void] {
  const [open, setOpen] = useState(() => sessionStorage.getItem(OPEN_KEY) === '1');
  const toggle = useCallback(() => {
    setOpen((was) => {
      sessionStorage.setItem(OPEN_KEY, was ? '0' : '1');
      return !was;
    });
  }, []);
  return [open, toggle];
}

/** The status bar's switch for the drawer. */
export function LogDrawerToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <button type="button" data-testid="status-log" aria-expanded={open} aria-controls="log-drawer" onClick={onToggle} style={{ padding: '0 8px', fontSize: 12 }}>
      {open ? 'Hide log' : 'Log'}
    </button>
  );
}

/** The topics the log has had: the backlog's, then each new one as its first line arrives. */
function useLogTopics(): string[] {
  const api = useApi();
  const [topics, setTopics] = useState<string[]>([]);
  useEffect(() => {
    let current = true;
    const add = (names: string[]) => setTopics((known) => [...known, ...names.filter((name, index) => !known.includes(name) && names.indexOf(name) === index)]);
    const off = api.subscribe('log', (line) => add([logTopic(line)]));
    api.log.backlog().then(
      (backlog) => current && add(backlog.topics.map((topic) => topic.topic)),
      () => undefined, // the picker then offers the topics of new lines only
    );
    return () => {
      current = false;
      off();
    };
  }, [api]);
  return topics;
}

export function LogDrawer({ onClose }: { onClose: () => void }) {
  const topics = useLogTopics();
  const [topic, setTopic] = useState('');
  return (
    <section
      id="log-drawer"
      data-testid="log-drawer"
      aria-label="Log"
      style={{ gridColumn: '1 / -1', borderTop: '1px solid var(--border)', background: 'var(--panel)', padding: '8px 12px 10px' }}
    >
      <header className="page-header" style={{ marginBottom: 6 }}>
        <h2 style={{ margin: 0 }}>
          Log <span className="muted" style={{ fontSize: 12, fontWeight: 'normal' }}>the last lines of each deploy, build and run, then what happens now</span>
        </h2>
        <div className="actions">
          <select data-testid="log-drawer-topic" aria-label="Show" value={topic} onChange={(event) => setTopic(event.target.value)}>
            <option value="">Everything</option>
            {[...topics].sort().map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <button type="button" data-testid="log-drawer-close" onClick={onClose}>
            Close
          </button>
        </div>
      </header>
      <LogTerminal key={topic} height="32vh" testId="log-drawer-terminal" topic={topic || undefined} />
    </section>
  );
}
