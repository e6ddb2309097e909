// A page's frame: its title with the page's actions beside it and the line that says what the page
// is for (data-testid `page-<id>`).

import type { ReactNode } from 'react';

export function Page(props: { id: string; title: string; wide?: boolean; actions?: ReactNode; hint?: ReactNode; children: ReactNode }) {
  return (
    <section className={props.wide ? 'page page-wide' : 'page'} data-testid={`page-${props.id}`}>
      <header className="page-header">
        <h1>{props.title}</h1>
        {props.actions}
      </header>
      {props.hint && <p className="hint">{props.hint}</p>}
      {props.children}
    </section>
  );
}
