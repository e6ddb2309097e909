// Pages whose capability does not exist yet say so plainly, with what they will do.

import type { PageId } from '../navigation.ts';

const PLANNED: Partial<Record<PageId, { title: string; what: string }>> = {
  templates: {
    title: 'Templates',
    what: 'Deploy a server under test (Apache static, Node, Tomcat, Undertow, Vert.x, Spray) to the server host.',
  },
  run: {
    title: 'Run',
    what: 'Drive load from the client host with live charts of requests/s, latency percentiles, errors and CPU.',
  },
};

export function NotBuiltPage({ page }: { page: PageId }) {
  const plan = PLANNED[page];
  return (
    <section className="page" data-testid={`page-${page}`}>
      <h1>{plan?.title ?? page}</h1>
      <div className="empty" data-testid="not-built">
        <strong>Not built yet.</strong> {plan?.what}
      </div>
    </section>
  );
}
