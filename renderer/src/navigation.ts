// The app's pages and hash routing (#/hosts), so a reload stays on the same page, and the page a
// fresh start opens on.

import { useEffect, useState } from 'react';
import { useApi } from './api-context.tsx';

export const PAGES = [
  { id: 'wizard', label: 'New plan' },
  { id: 'hosts', label: 'Hosts' },
  { id: 'terminals', label: 'Terminals' },
  { id: 'presets', label: 'Presets' },
  { id: 'templates', label: 'Templates' },
  { id: 'run', label: 'Run' },
  { id: 'sessions', label: 'Sessions' },
  { id: 'compare', label: 'Compare' },
] as const;

export type PageId = (typeof PAGES)[number]['id'];

/** The page the address names; null when it names none (a fresh start). */
function pageFromHash(hash: string): PageId | null {
  const id = hash.replace(/^#\/?/, '');
  return PAGES.find((page) => page.id === id)?.id ?? null;
}

/**
 * The current page. An address naming none starts on New plan while no session is stored yet (a
 * first start has nothing else to show), else on Hosts; the choice replaces the address, so Back
 * does not return to the blank one.
 */
export function usePage(): [PageId | null, (page: PageId) => void] {
  const api = useApi();
  const [page, setPage] = useState<PageId | null>(() => pageFromHash(window.location.hash));
  useEffect(() => {
    const onHashChange = () => setPage(pageFromHash(window.location.hash));
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  useEffect(() => {
    if (page !== null) return;
    let current = true;
    api.sessions
      .list()
      .then(
        (sessions): PageId => (sessions.length === 0 ? 'wizard' : 'hosts'),
        (): PageId => 'hosts',
      )
      .then((start) => {
        if (current && pageFromHash(window.location.hash) === null) window.location.replace(`#/${start}`);
      });
    return () => {
      current = false;
    };
  }, [api, page]);
  return [page, (next) => (window.location.hash = `/${next}`)];
}
