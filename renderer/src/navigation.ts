// The app's pages and hash routing (#/hosts), so a reload stays on the same page.

import { useEffect, useState } from 'react';

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

function pageFromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '');
  return PAGES.find((page) => page.id === id)?.id ?? 'hosts';
}

export function usePage(): [PageId, (page: PageId) => void] {
  const [page, setPage] = useState<PageId>(() => pageFromHash(window.location.hash));
  useEffect(() => {
    const onHashChange = () => setPage(pageFromHash(window.location.hash));
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  return [page, (next) => (window.location.hash = `/${next}`)];
}
