// The window: navigation on the left, the current page, notices on top and a status bar below.

import type { ReactElement } from 'react';
import { useApi, useConnection } from './api-context.tsx';
import { PAGES, usePage, type PageId } from './navigation.ts';
import { Banner, ErrorBanner } from './common/Banner.tsx';
import { useLoaded } from './common/use-loaded.ts';
import { PendingReverts } from './features/presets/PendingReverts.tsx';
import { ComparePage } from './features/sessions/ComparePage.tsx';
import { HostsPage } from './features/hosts/HostsPage.tsx';
import { PresetsPage } from './features/presets/PresetsPage.tsx';
import { RunPage } from './features/runs/RunPage.tsx';
import { SessionsPage } from './features/sessions/SessionsPage.tsx';
import { TemplatesPage } from './features/templates/TemplatesPage.tsx';
import { TerminalsPage } from './features/terminals/TerminalsPage.tsx';
import { LogDrawer, LogDrawerToggle, useLogDrawer } from './features/terminals/LogDrawer.tsx';
import { WizardPage } from './features/plans/WizardPage.tsx';

/** Each page's component: a page added to PAGES without one here does not compile. */
const PAGE_VIEWS: Record<PageId, () => ReactElement> = {
  wizard: WizardPage,
  hosts: HostsPage,
  compare: ComparePage,
  sessions: SessionsPage,
  terminals: TerminalsPage,
  templates: TemplatesPage,
  presets: PresetsPage,
  run: RunPage,
};

function PageView({ page }: { page: PageId }) {
  const View = PAGE_VIEWS[page];
  return <View />;
}

export function App() {
  const api = useApi();
  const connection = useConnection();
  const [page, setPage] = usePage();
  const { value: info, error: infoError } = useLoaded((client) => client.app.info());
  const [logOpen, toggleLog] = useLogDrawer();

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Benchlab</div>
        {PAGES.map((entry) => (
          <button
            key={entry.id}
            type="button"
            className={entry.id === page ? 'nav-item active' : 'nav-item'}
            aria-current={entry.id === page ? 'page' : undefined}
            data-testid={`nav-${entry.id}`}
            onClick={() => setPage(entry.id)}
          >
            {entry.label}
          </button>
        ))}
      </nav>
      <main className="content">
        {info?.notices.map((notice) => (
          <Banner key={notice} tone="warning" role="alert" testId="notice">
            {notice}
          </Banner>
        ))}
        <PendingReverts />
        <ErrorBanner error={infoError} />
        {page && <PageView page={page} />}
      </main>
      {logOpen && <LogDrawer onClose={toggleLog} />}
      <footer className="statusbar" data-testid="statusbar">
        <span data-testid="status-connection" className={`dot ${connection}`}>
          {connection === 'connected' ? 'Connected' : connection === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
        <span data-testid="status-transport">Transport: {info?.transport ?? api.transport}</span>
        <span data-testid="status-data-dir" title={info?.databaseFile}>
          Data: {info?.dataDir ?? '…'}
        </span>
        <span className="spacer" />
        <LogDrawerToggle open={logOpen} onToggle={toggleLog} />
        <span>v{info?.version ?? '…'}</span>
      </footer>
    </div>
  );
}
