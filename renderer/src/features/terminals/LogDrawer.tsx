// The log drawer: the log terminal (the backlog of each deploy, build and run, then what happens)
// in a pane across the bottom of the window, opened from the status bar on any page. It stays open
// across pages, and across a reload of the window (the choice is kept for the window's session).

import { useCallback, useState } from 'react';
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

export function LogDrawer({ onClose }: { onClose: () => void }) {
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
        <button type="button" data-testid="log-drawer-close" onClick={onClose}>
          Close
        </button>
      </header>
      <LogTerminal height="32vh" testId="log-drawer-terminal" />
    </section>
  );
}
