// The figures a study's seed published, beside a comparison of that study's sessions: the seed's own
// table on its own hardware, marked as imported and never part of a verdict, with the sessions that
// ran what each row stands for. Shown when the compared sessions carry a study's id (plans tag their
// sessions with it) and that study ships its seed's figures.

import type { PublishedFigure } from '../../../../app/plans/published-results.ts';
import { publishedFor } from '../../../../app/plans/published-report.ts';
import { PUBLISHED_FIGURE_LABELS, publishedColumns, sessionsRunning } from '../../../../app/plans/published-results.ts';
import { sessionLabel } from '../../../../app/sessions/comparison-headline.ts';
import type { Comparison } from '../../../../app/sessions/comparison.ts';
import { useLoaded } from '../../common/use-loaded.ts';

function figure(value: number | undefined, key: PublishedFigure): string {
  if (value === undefined) return '—';
  return key === 'requests' || key === 'failed' || key === 'timeouts' || key.startsWith('under') || key.startsWith('from') || key.startsWith('over')
    ? value.toLocaleString('en-US')
    : String(value);
}

export function PublishedBySeed({ comparison }: { comparison: Comparison }) {
  const catalog = useLoaded((client) => client.plans.studies());
  const all = (catalog.value?.studies ?? []).flatMap((study) => (study.published ? [study.published] : []));
  const published = publishedFor(comparison, all);
  if (!published) return null;
  const columns = publishedColumns(published.results);
  const withEndpoint = published.results.some((row) => row.endpoint !== undefined);
  return (
    <section className="published-by-seed" data-testid="compare-published">
      <h3>Published by the seed, on its hardware</h3>
      <p className="hint" data-testid="compare-published-note">
        {published.tool} on {published.where}. The seed’s own figures, imported for reference: not measured by Benchlab, never in a
        verdict, and not comparable in absolute terms with the runs above.{published.note ? ` ${published.note}` : ''}
      </p>
      <div className="table-scroll">
        <table className="table compact">
          <thead>
            <tr>
              <th>seed’s server</th>
              {withEndpoint && <th>path</th>}
              <th>step</th>
              {columns.map((column) => (
                <th key={column} className="num">
                  {PUBLISHED_FIGURE_LABELS[column]}
                </th>
              ))}
              <th>ran here as</th>
            </tr>
          </thead>
          <tbody>
            {published.results.map((row, index) => {
              const ran = sessionsRunning(row, comparison.sessions);
              return (
                <tr key={index} data-testid="compare-published-row">
                  <td>{row.label}</td>
                  {withEndpoint && <td className="mono">{row.endpoint ?? '—'}</td>}
                  <td>{row.step}</td>
                  {columns.map((column) => (
                    <td key={column} className="num">
                      {figure(row.figures[column], column)}
                    </td>
                  ))}
                  <td data-testid="compare-published-ran">{ran.length > 0 ? ran.map((session) => sessionLabel(comparison, session)).join(', ') : row.template === null ? 'no template' : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
