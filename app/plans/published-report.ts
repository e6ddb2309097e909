// The printed comparison's chapter for a study's sessions: the figures its seed published, each
// seed row with Benchlab's row for the same server and step right under it, in the same columns
// (the figures both have), then the seed's other figures. The seed's rows are marked as imported and
// never judged. Pure: the comparison and the study's published results in, HTML out.

import { formatMs, section, table, type Cell } from '../sessions/comparison-report.ts';
import { sessionLabel } from '../sessions/comparison-headline.ts';
import { escapeXml } from '../sessions/svg-chart.ts';
import type { CompareStep, Comparison } from '../sessions/comparison.ts';
import { PUBLISHED_FIGURE_LABELS, publishedColumns, sessionsRunning, type PublishedFigure, type PublishedResults, type PublishedRow } from './published-results.ts';

/** The study whose figures go beside a comparison: the one whose id every compared session is tagged with. */
export function publishedFor(comparison: Pick<Comparison, 'sessions'>, published: readonly PublishedResults[]): PublishedResults | null {
  if (comparison.sessions.length === 0) return null;
  return published.find((results) => comparison.sessions.every((session) => session.tags.includes(results.study))) ?? null;
}

const BYTES_PER_MB = 1024 * 1024;

/** A published figure's like in Benchlab's comparison: its column key. */
const LIKE: Partial<Record<PublishedFigure, string>> = {
  requestsPerSecond: 'rps',
  meanMs: 'mean',
  stdDevMs: 'stddev',
  p50Ms: 'p50',
  p75Ms: 'p75',
  p90Ms: 'p90',
  p99Ms: 'p99',
  maxMs: 'max',
  failed: 'failed',
  timeouts: 'timeouts',
  under800: 'band:< 800 ms',
  from800To1200: 'band:800–1200 ms',
  over1200: 'band:≥ 1200 ms',
  memoryMb: 'rssMax',
};

const COUNTS: ReadonlySet<PublishedFigure> = new Set(['requests', 'failed', 'timeouts', 'under800', 'from800To1200', 'over1200']);
const BANDS: ReadonlySet<PublishedFigure> = new Set(['under800', 'from800To1200', 'over1200']);

const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;

function seedCell(row: PublishedRow, figure: PublishedFigure): string {
  const value = row.figures[figure];
  if (value === undefined) return '—';
  const text = COUNTS.has(figure) ? value.toLocaleString('en-US') : String(value);
  // A band is a count in the seed's report and a share in Benchlab's: the seed's share beside its count.
  const requests = row.figures.requests;
  return BANDS.has(figure) && requests ? `${text} (${share(value, requests)})` : text;
}

function benchlabCell(comparison: Comparison, step: CompareStep, session: number, figure: PublishedFigure): string {
  const like = LIKE[figure];
  const column = like ? comparison.columns.findIndex((candidate) => candidate.key === like) : -1;
  const value = column < 0 ? null : (step.rows.find((row) => row.session === session)?.values[column] ?? null);
  if (value === null || !Number.isFinite(value)) return '—';
  const unit = comparison.columns[column]!.unit;
  if (unit === 'us') return formatMs(value);
  if (unit === 'share') return `${(value * 100).toFixed(1)} %`;
  // The seeds publish memory (their one figure in bytes here) in MB.
  if (unit === 'bytes') return String(Math.round(value / BYTES_PER_MB));
  if (unit === 'rps') return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
  return Math.round(value).toLocaleString('en-US');
}

/** The rows the seed printed for one server and endpoint at its several steps, in step order. */
function siblingsOf(row: PublishedRow, rows: readonly PublishedRow[]): PublishedRow[] {
  const same = rows.filter((other) => other.label === row.label && other.endpoint === row.endpoint && other.request === row.request && JSON.stringify(other.template) === JSON.stringify(row.template));
  return same.every((other) => other.stepValue !== undefined) ? [...same].sort((a, b) => a.stepValue! - b.stepValue!) : same;
}

/**
 * The step of a session that stands for a published row's: its only step; else the one at the
 * row's step value (connections or rate); else, when the seed printed as many steps for that server
 * as the session ran (steps set as multiples of a measured capacity), the one in the same place.
 */
export function matchingStep(comparison: Comparison, session: number, row: PublishedRow, rows: readonly PublishedRow[]): CompareStep | null {
  const steps = comparison.steps.filter((step) => step.rows.some((candidate) => candidate.session === session));
  if (steps.length <= 1) return steps[0] ?? null;
  const atValue = row.stepValue === undefined ? undefined : steps.find((step) => step.position?.value === row.stepValue);
  if (atValue) return atValue;
  const siblings = siblingsOf(row, rows);
  return siblings.length === steps.length ? steps[siblings.indexOf(row)]! : null;
}

/** The chapter, or '' when the comparison's sessions are not one study's with published figures. */
export function publishedChapter(comparison: Comparison, published: PublishedResults | null): string {
  if (!published) return '';
  const rows = published.results;
  const all = publishedColumns(rows);
  const alike = all.filter((figure) => LIKE[figure] !== undefined);
  const others = all.filter((figure) => LIKE[figure] === undefined);
  const withEndpoint = rows.some((row) => row.endpoint !== undefined);
  const seedClass = (text: string): Cell => ({ text: escapeXml(text), className: 'seed' });

  const sideBySide: Array<Array<string | Cell>> = [];
  for (const row of rows) {
    sideBySide.push([seedClass(`seed: ${row.label}`), ...(withEndpoint ? [seedClass(row.endpoint ?? '—')] : []), seedClass(row.step), ...alike.map((figure) => seedClass(seedCell(row, figure)))]);
    const sessions = sessionsRunning(row, comparison.sessions);
    const ran = sessions.flatMap((session) => {
      const step = matchingStep(comparison, session, row, rows);
      return step ? [{ session, step }] : [];
    });
    for (const { session, step } of ran) {
      const name = `Benchlab: ${sessionLabel(comparison, session)} · ${comparison.sessions[session]?.templates.join(' + ') ?? ''}`;
      sideBySide.push([name, ...(withEndpoint ? [comparison.sessions[session]?.request?.path ?? '—'] : []), step.label, ...alike.map((figure) => benchlabCell(comparison, step, session, figure))]);
    }
    if (ran.length === 0) {
      const why = row.template === null ? 'Benchlab: no template stands for it' : sessions.length > 0 ? 'Benchlab: no step of its sessions matches' : 'Benchlab: not among the compared sessions';
      sideBySide.push([{ text: escapeXml(why), className: 'muted' }, ...(withEndpoint ? [''] : []), '', ...alike.map(() => '')]);
    }
  }
  const textColumns = withEndpoint ? 3 : 2;
  const headers = ['Server', ...(withEndpoint ? ['Path'] : []), 'Step', ...alike.map((figure) => PUBLISHED_FIGURE_LABELS[figure])];
  const intro = `<div class="meta">${escapeXml(`${published.tool} on ${published.where}. Grey rows: the seed's own figures, imported for reference — not measured by Benchlab, never in a verdict, not comparable in absolute terms. Under each, Benchlab's run of what stands for that server, at the matching step, in the same units (bands: the seed's count and share, Benchlab's share).${published.note ? ` ${published.note}` : ''}`)}</div>`;
  const main = table(headers, sideBySide, { textColumns, attributes: ' data-section="published-beside"' });
  const rest =
    others.length === 0
      ? ''
      : section(
          3,
          "The seed's other figures",
          table(
            ['Server', ...(withEndpoint ? ['Path'] : []), 'Step', ...others.map((figure) => PUBLISHED_FIGURE_LABELS[figure])],
            rows.map((row) => [row.label, ...(withEndpoint ? [row.endpoint ?? '—'] : []), row.step, ...others.map((figure) => seedCell(row, figure))]),
            { textColumns, attributes: ' data-section="published-other"' },
          ),
        );
  const style = '<style>td.seed { background: #f3f4f6; } td.muted { color: #6b7280; font-style: italic; } table[data-section="published-other"] td.text { min-width: 10em; }</style>';
  return `<section class="chapter" data-section="published">${style}<div class="keep"><h2>${escapeXml("The seed's published figures beside Benchlab's")}</h2>${intro}</div>${main}${rest}</section>`;
}
