// The printed comparison: one self-contained HTML page (inline CSS, SVG charts) with the title, the
// date, hosts and their system info, each session's configuration, the per-step tables with the
// best values and the runs that were not steady marked, repeated-run intervals with the ratio
// verdicts, the charts, warnings and notes. Chromium prints it to PDF (headless in web mode,
// Electron's printToPDF in the app); the UI's tables share the formats.

import { MIN_RUNS_FOR_VERDICT } from './compare-stats.ts';
import { bottleneckText } from '../runs/bottleneck.ts';
import type { CompareColumn, CompareRow, Comparison } from './comparison.ts';
import { escapeXml, SERIES_COLORS, svgLineChart } from './svg-chart.ts';

export function formatMs(us: number): string {
  const ms = us / 1000;
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

/** A table cell as text: latencies in ms, rates whole, shares in %. */
export function formatValue(column: Pick<CompareColumn, 'unit'>, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  switch (column.unit) {
    case 'us':
      return `${formatMs(value)} ms`;
    case 'rps':
      return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
    case 'share':
      return `${(value * 100).toFixed(1)} %`;
    default:
      return Math.round(value).toLocaleString('en-US');
  }
}

/**
 * Why a row shows "—": its columns grouped by reason, e.g. "p50, p75: wrk prints percentiles only
 * with --latency; bands: no histogram…". Null when the row lacks nothing.
 */
export function missingNote(columns: readonly CompareColumn[], row: Pick<CompareRow, 'missing'>): string | null {
  if (!row.missing) return null;
  const byReason = new Map<string, string[]>();
  for (const column of columns) {
    const reason = row.missing[column.key];
    if (reason) byReason.set(reason, [...(byReason.get(reason) ?? []), column.label]);
  }
  return byReason.size === 0 ? null : [...byReason].map(([reason, labels]) => `${labels.join(', ')}: ${reason}`).join('; ');
}

export const percentileTick = (x: number) => `${Number((100 - 100 / x).toPrecision(6))}%`;

/** The distribution chart's x: 1/(1−p), so p99 sits at 100 and p99.9 at 1000 on a log axis. */
export function percentileX(percentile: number): number {
  return 1 / (1 - Math.min(percentile, 99.9999) / 100);
}

export function comparisonCharts(comparison: Comparison, step?: string): string[] {
  const name = (i: number) => comparison.sessions[i]?.name ?? `#${i + 1}`;
  const color = (i: number) => SERIES_COLORS[i % SERIES_COLORS.length]!;
  const rps = svgLineChart(
    comparison.timelines.map((t) => ({ label: name(t.session), color: color(t.session), xs: t.t, ys: t.rps })),
    { title: 'Requests/s over time', xLabel: 'seconds since the session started', yLabel: 'requests/s' },
  );
  const p99 = svgLineChart(
    comparison.timelines.map((t) => ({ label: name(t.session), color: color(t.session), xs: t.t, ys: t.p99Us.map((us) => (us === null ? null : us / 1000)) })),
    { title: 'p99 latency over time', xLabel: 'seconds since the session started', yLabel: 'p99 (ms)', yLog: true },
  );
  const chosen = step ?? comparison.steps[0]?.label;
  const distribution = svgLineChart(
    comparison.distributions
      .filter((d) => d.step === chosen)
      .map((d) => ({ label: name(d.session), color: color(d.session), xs: d.points.map((p) => percentileX(p.percentile)), ys: d.points.map((p) => p.us / 1000) })),
    { title: `Latency distribution${chosen ? ` (${chosen})` : ''}`, xLabel: 'percentile', yLabel: 'latency (ms)', xLog: true, yLog: true, xTick: percentileTick },
  );
  return [rps, p99, distribution];
}

const STYLE = `
  body { font: 11px/1.4 system-ui, sans-serif; color: #111; margin: 0; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 14px; margin: 18px 0 6px; border-bottom: 1px solid #ccc; }
  h3 { font-size: 12px; margin: 10px 0 4px; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 6px; page-break-inside: avoid; }
  th, td { border: 1px solid #d1d5db; padding: 2px 5px; text-align: right; } th:first-child, td:first-child { text-align: left; }
  th { background: #f3f4f6; } td.best { font-weight: 700; background: #dcfce7; } td.differs { background: #fef3c7; }
  .warning { border: 1px solid #f59e0b; background: #fffbeb; padding: 4px 8px; margin: 4px 0; }
  .chart { display: block; margin: 8px 0; page-break-inside: avoid; width: 200mm; max-width: 100%; height: auto; }
  table { table-layout: auto; } body { padding-right: 2px; }
  .meta { color: #555; } .swatch { display: inline-block; width: 9px; height: 9px; margin-right: 4px; }
  pre { white-space: pre-wrap; font: inherit; margin: 0; }
`;

function table(headers: string[], rows: string[][], cellClass?: (row: number, col: number) => string): string {
  const head = `<tr>${headers.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr>`;
  const body = rows
    .map((row, r) => `<tr>${row.map((cell, c) => `<td${cellClass?.(r, c) ? ` class="${cellClass(r, c)}"` : ''}>${escapeXml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return `<table>${head}${body}</table>`;
}

export function renderReportHtml(comparison: Comparison, options: { generatedAt: Date; notes?: string }): string {
  const name = (i: number) => comparison.sessions[i]?.name ?? `#${i + 1}`;
  const out: string[] = [];
  out.push(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeXml(comparison.title)}</title><style>${STYLE}</style></head><body>`);
  out.push(`<h1>${escapeXml(comparison.title)}</h1>`);
  out.push(`<div class="meta">Generated ${escapeXml(options.generatedAt.toISOString().replace('T', ' ').slice(0, 19))} UTC by Benchlab · ${comparison.sessions.length} sessions</div>`);
  for (const warning of comparison.warnings) out.push(`<div class="warning">⚠ ${escapeXml(warning)}</div>`);

  out.push('<h2>Sessions and configuration</h2>');
  out.push(
    table(
      ['', 'Session', 'Started', 'Status', 'Client', 'Server', 'Templates', 'Load'],
      comparison.sessions.map((s, i) => [`${i + 1}`, s.name, (s.startedAt ?? s.createdAt).replace('T', ' ').slice(0, 19), s.status, s.clientHost ?? '—', s.serverHost ?? '—', s.templates.join(', ') || '—', s.configuration]),
    ),
  );

  out.push('<h2>Results per step</h2>');
  for (const step of comparison.steps) {
    out.push(`<h3>${escapeXml(step.label)}</h3>`);
    out.push(
      table(
        ['Session', ...comparison.columns.map((c) => c.label)],
        step.rows.map((row) => [`${name(row.session)}${row.steadiness?.steady === false ? ' — not steady †' : ''}`, ...row.values.map((value, c) => formatValue(comparison.columns[c]!, value))]),
        (r, c) => (c > 0 && step.rows[r]!.best[c - 1] ? 'best' : ''),
      ),
    );
    for (const row of step.rows) {
      const note = missingNote(comparison.columns, row);
      if (note) out.push(`<div class="meta" data-missing="${row.runId}">— ${escapeXml(name(row.session))}: ${escapeXml(note)}</div>`);
    }
    for (const row of step.rows) if (row.steadiness?.steady === false) out.push(`<div class="meta">† ${escapeXml(name(row.session))}: ${escapeXml(row.steadiness.message)}</div>`);
    for (const row of step.rows) if (row.bottleneck) out.push(`<div class="meta" data-bottleneck="${row.bottleneck.verdict}">Bottleneck, ${escapeXml(name(row.session))}: ${escapeXml(bottleneckText(row.bottleneck))}</div>`);
  }
  out.push('<div class="meta">Bold on green: the best value of the column for that step. Latencies from merged HDR histograms. Not steady: requests/s or p50 changed more than 10 % between the halves of the run.</div>');

  if (comparison.repeats.some((group) => group.sessions.length > 1)) {
    out.push('<h2>Repeated runs (median, 95 % bootstrap interval; against the first: the ratio with its 95 % CI)</h2>');
    const rows = comparison.repeats.flatMap((group) =>
      group.steps.map((s) => [
        group.label,
        s.label,
        `${s.rps.n}`,
        `${formatValue({ unit: 'rps' }, s.rps.median)} [${formatValue({ unit: 'rps' }, s.rps.low)} – ${formatValue({ unit: 'rps' }, s.rps.high)}]`,
        s.p99Us ? `${formatMs(s.p99Us.median)} [${formatMs(s.p99Us.low)} – ${formatMs(s.p99Us.high)}] ms` : '—',
        s.rpsVsBaseline?.text ?? 'baseline',
        s.p99VsBaseline?.text ?? (s.rpsVsBaseline ? '—' : 'baseline'),
      ]),
    );
    out.push(table(['Configuration', 'Step', 'Runs', 'Requests/s', 'p99', 'Requests/s vs first', 'p99 vs first'], rows));
    out.push(
      `<div class="meta">The ratio is of geometric means of the runs, with Welch's 95 % t interval on their logarithms; a verdict needs at least ${MIN_RUNS_FOR_VERDICT} runs a side.</div>`,
    );
  }

  out.push('<h2>Charts</h2>');
  out.push(...comparisonCharts(comparison));

  out.push('<h2>Hosts and system info</h2>');
  out.push('<div class="meta">As each session recorded its hosts when it started.</div>');
  out.push(
    table(
      ['Host', 'Fact', ...comparison.sessions.map((_, i) => name(i))],
      comparison.hosts.rows.map((row) => [row.role, row.label, ...row.values.map((v) => v ?? 'not recorded')]),
      (r, c) => (c > 1 && comparison.hosts.rows[r]!.differs ? 'differs' : ''),
    ),
  );

  const notes = [options.notes?.trim(), ...comparison.sessions.map((s) => (s.notes.trim() ? `${s.name}: ${s.notes.trim()}` : ''))].filter(Boolean);
  if (notes.length > 0) {
    out.push('<h2>Notes</h2>');
    for (const note of notes) out.push(`<pre>${escapeXml(note!)}</pre>`);
  }
  out.push('</body></html>');
  return out.join('\n');
}
