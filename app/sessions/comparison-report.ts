// The printed comparison: one self-contained HTML page (inline CSS, SVG charts). Its first page
// answers the question (comparison-headline.ts): title and date, one line per configuration under
// a letter A, B, C, the headline table with who is ahead and by how much, the warnings and notes.
// Then the charts made for the kind of run (a sweep's requests/s and latency against connections
// or rate, every step's latency distribution, time series with step markers), the per-step tables,
// repeated-run intervals, and the hosts where they differ. Headings are kept with what follows
// them and no internal field name is printed. Chromium prints it to PDF (headless in web mode,
// Electron's printToPDF in the app); the UI's tables share the formats.

import { MIN_RUNS_FOR_VERDICT } from './compare-stats.ts';
import { plural } from '../common/plural.ts';
import { formatBytes } from '../common/byte-size.ts';
import { bottleneckText } from '../runs/bottleneck.ts';
import { buildHeadline, configurationSeries, HEADLINE_LABELS, HEADLINE_METRICS, sessionLabel, type Headline, type HeadlineMetric } from './comparison-headline.ts';
import type { CompareColumn, CompareRow, Comparison } from './comparison.ts';
import { escapeXml, SERIES_COLORS, svgLineChart, type SvgSeries } from './svg-chart.ts';
import { buildEndpointTable, endpointGcText } from './comparison-endpoints.ts';

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
    case 'bytes':
      return formatBytes(value);
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

/** A configuration's colour: the same in every chart, the table and the UI. */
export function configurationColor(group: number): string {
  return SERIES_COLORS[group % SERIES_COLORS.length]!;
}

/** Consecutive seconds are 1 apart: a wider gap is a pause between steps, where no line is drawn. */
const PAUSE_GAP_S = 1.5;

const AXIS_TITLE = { connections: 'connections', rate: 'target requests/s' } as const;

/** The sweep's axis when every step sits on one (connections or rate) at two or more distinct places. */
export function sweepAxis(comparison: Comparison): { axis: 'connections' | 'rate'; values: number[] } | null {
  const positions = comparison.steps.map((step) => step.position ?? null);
  if (positions.some((position) => position === null)) return null;
  const axis = positions[0]?.axis;
  if (!axis || positions.some((position) => position!.axis !== axis)) return null;
  const values = positions.map((position) => position!.value);
  return new Set(values).size > 1 ? { axis, values } : null;
}

export interface ReportChart {
  /** Stable name, for tests and the page's test ids. */
  id: string;
  svg: string;
}

function legend(headline: Headline, extra?: string): string {
  const entries = headline.configurations.map(
    (config, g) => `<span class="entry"><span class="swatch" style="background:${configurationColor(g)}"></span><b>${config.letter}</b> ${escapeXml(config.name)}</span>`,
  );
  return `<div class="legend">${entries.join('')}${extra ? `<span class="entry muted">${escapeXml(extra)}</span>` : ''}</div>`;
}

/** The charts for the kind of run, each as SVG text; sweeps get the against-load charts first. */
export function comparisonCharts(comparison: Comparison): ReportChart[] {
  const charts: ReportChart[] = [];
  const colorOf = (session: number) => configurationColor(comparison.sessions[session]?.group ?? session);
  const sweep = sweepAxis(comparison);
  if (sweep) {
    const log = Math.max(...sweep.values) / Math.min(...sweep.values) >= 20;
    const common = { xLabel: AXIS_TITLE[sweep.axis], xLog: log, xTicks: sweep.values, width: 480, height: 250 };
    const series = (metric: HeadlineMetric, scale = 1, dashed = false): SvgSeries[] =>
      configurationSeries(comparison, metric).map((ys, g) => ({
        label: `${comparison.repeats[g]?.label ?? g}`,
        color: configurationColor(g),
        dashed,
        dots: true,
        xs: sweep.values,
        ys: ys.map((y) => (y === null ? null : y / scale)),
      }));
    charts.push({ id: 'sweep-rps', svg: svgLineChart(series('rps'), { ...common, title: `Requests/s against ${AXIS_TITLE[sweep.axis]}`, yLabel: 'requests/s' }) });
    charts.push({
      id: 'sweep-latency',
      svg: svgLineChart([...series('p99', 1000), ...series('p50', 1000, true)], { ...common, title: `p50 and p99 against ${AXIS_TITLE[sweep.axis]}`, yLabel: 'latency (ms)', yLog: true }),
    });
  }
  const markers = stepMarkers(comparison);
  const timed = comparison.timelines.some((timeline) => timeline.t.length > 0);
  const timeCommon = { xLabel: 'seconds since the session started', breakOverX: PAUSE_GAP_S, markers, width: 960, height: 230 };
  if (timed) charts.push({
    id: 'time-rps',
    svg: svgLineChart(
      comparison.timelines.map((t) => ({ label: sessionLabel(comparison, t.session), color: colorOf(t.session), xs: t.t, ys: t.rps })),
      { ...timeCommon, title: 'Requests/s over time', yLabel: 'requests/s' },
    ),
  });
  if (timed) charts.push({
    id: 'time-p99',
    svg: svgLineChart(
      comparison.timelines.map((t) => ({ label: sessionLabel(comparison, t.session), color: colorOf(t.session), xs: t.t, ys: t.p99Us.map((us) => (us === null ? null : us / 1000)) })),
      { ...timeCommon, title: 'p99 latency over time', yLabel: 'p99 (ms)', yLog: true },
    ),
  });
  for (const [i, step] of comparison.steps.entries()) {
    const distributions = comparison.distributions.filter((d) => d.step === step.label);
    if (distributions.length === 0) continue;
    charts.push({
      id: `distribution-${i + 1}`,
      svg: svgLineChart(
        distributions.map((d) => ({ label: sessionLabel(comparison, d.session), color: colorOf(d.session), dots: true, xs: d.points.map((p) => percentileX(p.percentile)), ys: d.points.map((p) => p.us / 1000) })),
        { title: `Latency distribution, ${step.label}`, xLabel: 'percentile', yLabel: 'latency (ms)', xLog: true, yLog: true, xTick: percentileTick, width: 480, height: 250 },
      ),
    });
  }
  return charts;
}

/** Where each step began: the first session's steps, when every session has its steps at the same places; else none. */
function stepMarkers(comparison: Comparison): Array<{ x: number; label: string }> {
  const first = comparison.timelines.find((timeline) => timeline.steps.length > 1);
  if (!first) return [];
  const alike = comparison.timelines.every(
    (timeline) => timeline.steps.length === 0 || timeline.steps.every((step, i) => first.steps[i]?.label === step.label && Math.abs(first.steps[i]!.t - step.t) <= 2),
  );
  return alike ? first.steps.map((step) => ({ x: step.t, label: step.label })) : [];
}

const STYLE = `
  @page { size: A4 landscape; margin: 11mm 10mm; }
  body { font: 10.5px/1.4 system-ui, sans-serif; color: #111; margin: 0; }
  h1 { font-size: 20px; margin: 0 0 2px; } h2 { font-size: 14px; margin: 14px 0 5px; border-bottom: 1px solid #ccc; }
  h3 { font-size: 12px; margin: 8px 0 3px; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  .keep, figure, tr { break-inside: avoid; page-break-inside: avoid; }
  .chapter { break-before: page; page-break-before: always; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 5px; table-layout: auto; }
  thead { display: table-header-group; }
  th, td { border: 1px solid #d1d5db; padding: 2px 4px; text-align: right; white-space: nowrap; }
  th.text, td.text { text-align: left; white-space: normal; overflow-wrap: break-word; }
  td.mark { white-space: nowrap; }
  tr.verdict td { text-align: left; white-space: normal; color: #1f2937; border-top: none; }
  th { background: #f3f4f6; } td.best, div.best { font-weight: 700; background: #dcfce7; } td.differs { background: #fef3c7; }
  tr.step-head td { background: #f9fafb; font-weight: 600; text-align: left; }
  .warning { border: 1px solid #f59e0b; background: #fffbeb; padding: 3px 8px; margin: 3px 0; }
  figure { margin: 6px 0; } figure svg { display: block; width: 100%; height: auto; }
  .chart-row { display: flex; gap: 14px; break-inside: avoid; page-break-inside: avoid; }
  .chart-row figure { flex: 1 1 0; min-width: 0; }
  .legend { display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 10px; margin-top: 2px; }
  .legend .entry { white-space: normal; }
  .meta, .muted { color: #555; } .swatch { display: inline-block; width: 9px; height: 9px; margin-right: 4px; vertical-align: baseline; }
  .letter { font-weight: 700; white-space: nowrap; }
  pre { white-space: pre-wrap; font: inherit; margin: 0 0 4px; }
`;

export interface Cell {
  text: string;
  className?: string;
}

/**
 * A table whose first `textColumns` columns hold words (left, wrapping) and the rest figures (right,
 * never wrapped). A cell given as a string is escaped; a Cell's text is HTML already.
 */
export function table(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | Cell>>, options: { textColumns?: number; attributes?: string } = {}): string {
  const textColumns = options.textColumns ?? 1;
  const classOf = (i: number, extra?: string) => [i < textColumns ? 'text' : '', extra ?? ''].filter(Boolean).join(' ');
  const cell = (tag: 'th' | 'td', value: string | Cell, i: number) => {
    const { text, className } = typeof value === 'string' ? { text: escapeXml(value), className: undefined } : value;
    const classes = classOf(i, className);
    return `<${tag}${classes ? ` class="${classes}"` : ''}>${text}</${tag}>`;
  };
  const head = `<thead><tr>${headers.map((h, i) => cell('th', h, i)).join('')}</tr></thead>`;
  const body = rows.map((row) => `<tr>${row.map((value, i) => cell('td', value, i)).join('')}</tr>`).join('');
  return `<table${options.attributes ?? ''}>${head}<tbody>${body}</tbody></table>`;
}

/** A heading kept on one page with the first thing under it. */
export function section(level: 2 | 3, heading: string, first: string, rest = '', attributes = ''): string {
  return `<section${attributes}><div class="keep"><h${level}>${escapeXml(heading)}</h${level}>${first}</div>${rest}</section>`;
}

const swatch = (group: number) => `<span class="swatch" style="background:${configurationColor(group)}"></span>`;

function formatMetric(metric: HeadlineMetric, value: number | null): string {
  if (value === null) return '—';
  return metric === 'rps' ? formatValue({ unit: 'rps' }, value) : metric === 'errors' ? formatValue({ unit: 'count' }, value) : `${formatMs(value)} ms`;
}

function dateOf(comparison: Comparison): string {
  const days = [...new Set(comparison.sessions.map((s) => (s.startedAt ?? s.createdAt).slice(0, 10)))].sort();
  if (days.length === 0) return '';
  return days.length === 1 ? `run on ${days[0]}` : `run ${days[0]} to ${days.at(-1)}`;
}

function firstPage(comparison: Comparison, headline: Headline, notes: string[], generatedAt: Date): string {
  const out: string[] = [];
  out.push(`<h1>${escapeXml(comparison.title)}</h1>`);
  const counts = `${plural(headline.configurations.length, 'configuration')}, ${plural(comparison.sessions.length, 'session')}`;
  out.push(`<div class="meta" data-section="date">${escapeXml([dateOf(comparison), counts, `report generated ${generatedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC by Benchlab`].filter(Boolean).join(' · '))}</div>`);

  const withEngine = headline.configurations.some((config) => config.engine !== null);
  const configHeaders = ['', 'Configuration', 'Server', 'Variant', 'Knobs', 'Client → server host', ...(withEngine ? ['Engine'] : []), 'Load'];
  const configRows = headline.configurations.map((config, g) => [
    { text: `${swatch(g)}<span class="letter">${config.letter}</span>`, className: 'mark' },
    config.name,
    config.server,
    config.variant,
    config.knobs,
    config.hosts,
    ...(withEngine ? [config.engine ?? 'not recorded'] : []),
    config.load,
  ]);
  out.push(section(2, 'What was compared', table(configHeaders, configRows, { textColumns: configHeaders.length, attributes: ' data-section="configurations"' })));

  // A step column only where rows of one block come from different steps (a long sweep's peaks).
  const stepped = headline.steps.some((step) => step.rows.some((row) => row.step !== step.label));
  const headHeaders = ['', 'Configuration', ...(stepped ? ['Step'] : []), ...(headline.repeated ? ['Runs'] : []), ...HEADLINE_METRICS.map((metric) => HEADLINE_LABELS[metric])];
  const span = headHeaders.length;
  const headRows: string[] = [];
  for (const step of headline.steps) {
    if (headline.steps.length > 1 || stepped) headRows.push(`<tr class="step-head"><td colspan="${span}">${escapeXml(step.label)}</td></tr>`);
    for (const row of step.rows) {
      const config = headline.configurations[row.configuration]!;
      const cells = [
        `<td class="text mark">${swatch(row.configuration)}<span class="letter">${config.letter}</span></td>`,
        `<td class="text">${escapeXml(config.name)}</td>`,
        ...(stepped ? [`<td class="text">${escapeXml(row.step)}</td>`] : []),
        ...(headline.repeated ? [`<td>${row.runs}</td>`] : []),
        ...HEADLINE_METRICS.map((metric) => `<td${row.best[metric] ? ' class="best"' : ''} data-metric="${metric}">${formatMetric(metric, row.values[metric])}</td>`),
      ];
      headRows.push(`<tr>${cells.join('')}</tr>`);
    }
    if (step.verdicts.length > 0) headRows.push(`<tr class="verdict" data-verdict><td colspan="${span}">${step.verdicts.map(escapeXml).join('<br>')}</td></tr>`);
  }
  const headTable = `<table data-section="headline"><thead><tr>${headHeaders.map((h, i) => `<th${i < 2 || h === 'Step' ? ' class="text"' : ''}>${escapeXml(h)}</th>`).join('')}</tr></thead><tbody>${headRows.join('')}</tbody></table>`;
  const explain = [
    headline.stepNote,
    headline.repeated ? 'Figures of a configuration with several runs are the medians of its runs.' : null,
    'Bold on green: the best of the step. Errors + not sent: failed requests (errors, timeouts, non-2xx answers) and scheduled requests never sent.',
  ].filter(Boolean);
  out.push(section(2, 'Headline', headTable, `<div class="meta">${escapeXml(explain.join(' '))}</div>`));

  if (headline.warnings.length > 0) {
    const [first, ...rest] = headline.warnings.map((warning) => `<div class="warning">⚠ ${escapeXml(warning)}</div>`);
    out.push(section(2, 'Warnings', first!, rest.join(''), ' data-section="warnings"'));
  }
  if (notes.length > 0) {
    const [first, ...rest] = notes.map((note) => `<pre>${escapeXml(note)}</pre>`);
    out.push(section(2, 'Notes', first!, rest.join(''), ' data-section="notes"'));
  }
  return out.join('\n');
}

function chartsChapter(comparison: Comparison, headline: Headline): string {
  const charts = comparisonCharts(comparison);
  const sweep = sweepAxis(comparison);
  // Rows of two half-width charts; a time series takes a row alone. A row never splits over pages.
  const rows: string[][] = [];
  for (const chart of charts) {
    const wide = chart.id.startsWith('time-');
    const extra = chart.id === 'sweep-latency' ? 'solid: p99, dashed: p50' : wide && headline.repeated ? 'the runs of a configuration share its colour' : undefined;
    const figure = `<figure data-chart="${chart.id}">${chart.svg}${legend(headline, extra)}</figure>`;
    const last = rows.at(-1);
    if (!wide && last && last.length === 1 && !last[0]!.includes('data-chart="time-')) last.push(figure);
    else rows.push([figure]);
  }
  const [first, ...rest] = rows.map((row) => `<div class="chart-row">${row.join('')}${row.length === 1 && !row[0]!.includes('data-chart="time-') ? '<figure></figure>' : ''}</div>`);
  const intro = sweep
    ? `<div class="meta">A sweep over ${AXIS_TITLE[sweep.axis]}: one line per configuration, medians of its runs at each step. Time series: dashed lines mark where each step began; no line is drawn across a pause.</div>`
    : '<div class="meta">Time series: no line is drawn across a pause between steps.</div>';
  return `<section class="chapter"><div class="keep"><h2>Charts</h2>${intro}${first ?? ''}</div>${rest.join('')}</section>`;
}

function stepTables(comparison: Comparison): string {
  const label = (i: number) => `${sessionLabel(comparison, i)} · ${comparison.sessions[i]?.name ?? `#${i + 1}`}`;
  const name = (i: number) => comparison.sessions[i]?.name ?? `#${i + 1}`;
  const parts: string[] = [];
  for (const step of comparison.steps) {
    const rows = step.rows.map((row) => [
      `${label(row.session)}${row.status && row.status !== 'completed' ? ` — ${row.status}, not ranked` : ''}${row.steadiness?.steady === false ? ' — not steady †' : ''}`,
      ...row.values.map((value, c) => ({ text: escapeXml(formatValue(comparison.columns[c]!, value)), className: row.best[c] ? 'best' : undefined })),
    ]);
    const notes: string[] = [];
    for (const row of step.rows) {
      const note = missingNote(comparison.columns, row);
      if (note) notes.push(`<div class="meta" data-missing="${row.runId}">— ${escapeXml(name(row.session))}: ${escapeXml(note)}</div>`);
    }
    for (const row of step.rows) if (row.steadiness?.steady === false) notes.push(`<div class="meta">† ${escapeXml(name(row.session))}: ${escapeXml(row.steadiness.message)}</div>`);
    for (const row of step.rows) if (row.latency) notes.push(`<div class="meta" data-latency="${row.runId}">Latency, ${escapeXml(name(row.session))}: ${escapeXml(row.latency)}</div>`);
    for (const row of step.rows) {
      const memory = row.serverMemory;
      if (memory) notes.push(`<div class="meta" data-memory="${row.runId}">Server memory (RSS), ${escapeXml(name(row.session))}: ${formatBytes(memory.minBytes)} min, ${formatBytes(memory.maxBytes)} max, ${formatBytes(memory.endBytes)} at the end.</div>`);
    }
    for (const row of step.rows) if (row.serverRuntime) notes.push(`<div class="meta" data-runtime="${row.runId}">Server, ${escapeXml(name(row.session))}: ${escapeXml(row.serverRuntime)}</div>`);
    for (const row of step.rows) if (row.bottleneck) notes.push(`<div class="meta" data-bottleneck="${row.bottleneck.verdict}">Bottleneck, ${escapeXml(name(row.session))}: ${escapeXml(bottleneckText(row.bottleneck))}</div>`);
    const tableHtml = table(['Session', ...comparison.columns.map((c) => c.label)], rows);
    parts.push(section(3, step.label, tableHtml, notes.join('')));
  }
  const legendNote = '<div class="meta">Bold on green: the best value of the column for that step, among the runs that completed (a failed or stopped run is never best). Latencies from merged HDR histograms. Not steady: requests/s or p50 changed more than 10 % between the halves of the run.</div>';
  const [first, ...rest] = parts;
  return `<section class="chapter"><div class="keep"><h2>Results per step</h2>${first ?? ''}</div>${rest.join('')}${legendNote}</section>`;
}

/** Sessions that sent different requests: a row per endpoint (and step), a column per server, as Compare shows it. */
function endpointsChapter(comparison: Comparison): string {
  const endpoints = buildEndpointTable(comparison);
  if (!endpoints) return '';
  const stepped = endpoints.rows.some((row) => row.step !== null);
  const line = (text: string, best: boolean) => `<div${best ? ' class="best"' : ''}>${escapeXml(text)}</div>`;
  const rows = endpoints.rows.map((row) => [
    { text: `<b>${escapeXml(row.endpoint)}</b>${row.endpoint !== row.request ? `<div class="meta">${escapeXml(row.request)}</div>` : ''}` },
    ...(stepped ? [row.step ?? ''] : []),
    ...row.cells.map((cell): Cell =>
      cell === null
        ? { text: '<span class="muted">not run</span>' }
        : {
            text: [
              line(cell.rps === null ? '—' : `${formatValue({ unit: 'rps' }, cell.rps)} req/s`, cell.bestRps),
              line(`p99 ${cell.p99Us === null ? '—' : `${formatMs(cell.p99Us)} ms`}`, cell.bestP99),
              endpoints.memory ? line(cell.rssMaxBytes === null ? 'RSS —' : `RSS ${formatBytes(cell.rssMaxBytes)}`, false) : '',
              endpoints.gc ? line(endpointGcText(cell), false) : '',
              cell.runs !== 1 ? `<div class="meta">${cell.runs === 0 ? 'not completed' : `median of ${cell.runs} runs`}</div>` : '',
            ].join(''),
          },
    ),
  ]);
  const intro = `<div class="meta">A row per endpoint, a column per server: requests/s, p99${endpoints.memory ? ", the server's peak memory (RSS)" : ''}${endpoints.gc ? ', its share of the time in GC pauses and its highest heap after a GC' : ''} of its runs (the median where a server ran an endpoint more than once). Best requests/s and p99 of each row in bold on green.</div>`;
  const grid = table(['Endpoint', ...(stepped ? ['Step'] : []), ...endpoints.servers.map((server) => server.label)], rows, { textColumns: stepped ? 2 : 1, attributes: ' data-section="endpoints"' });
  return `<section class="chapter"><div class="keep"><h2>Results per endpoint</h2>${intro}</div>${grid}</section>`;
}

function repeatsSection(comparison: Comparison, headline: Headline): string {
  if (!headline.repeated) return '';
  const rows = comparison.repeats.flatMap((group, g) =>
    group.steps.map((s) => [
      `${headline.configurations[g]?.letter ?? ''} · ${headline.configurations[g]?.name ?? group.label}`,
      s.label,
      `${s.rps.n}`,
      `${formatValue({ unit: 'rps' }, s.rps.median)} [${formatValue({ unit: 'rps' }, s.rps.low)} – ${formatValue({ unit: 'rps' }, s.rps.high)}]`,
      s.p99Us ? `${formatMs(s.p99Us.median)} [${formatMs(s.p99Us.low)} – ${formatMs(s.p99Us.high)}] ms` : '—',
      s.rpsVsBaseline?.text ?? 'baseline',
      s.p99VsBaseline?.text ?? (s.rpsVsBaseline ? '—' : 'baseline'),
    ]),
  );
  return section(
    2,
    'Repeated runs',
    `<div class="meta">Median with its 95 % bootstrap interval; against the first configuration, the ratio with its 95 % confidence interval.</div>${table(['Configuration', 'Step', 'Runs', 'Requests/s', 'p99', 'Requests/s vs first', 'p99 vs first'], rows.map((row) => row.map((text, i) => (i >= 5 ? { text: escapeXml(text), className: 'text' } : text))), { textColumns: 2 })}`,
    `<div class="meta">The ratio is of geometric means of the runs, with Welch's 95 % t interval on their logarithms; a verdict needs at least ${MIN_RUNS_FOR_VERDICT} runs a side.</div>`,
  );
}

/** Hosts: a table of only the facts that differ between sessions; those alike everywhere are counted per role, not listed. */
function hostsSection(comparison: Comparison): string {
  const rows = comparison.hosts.rows;
  if (rows.length === 0) return '';
  const alike = (row: (typeof rows)[number]) => !row.differs && row.values.every((value) => value !== null);
  const differing = rows.filter((row) => !alike(row));
  const counted = (['server', 'client'] as const).flatMap((role) => {
    const same = rows.filter((row) => row.role === role && alike(row)).length;
    return same > 0 ? [`<div class="meta alike"><b>${role === 'server' ? 'Server' : 'Client'} hosts:</b> ${plural(same, 'fact')} identical in every session (not listed).</div>`] : [];
  });
  const intro = '<div class="meta">As each session recorded its hosts when it started; only the facts that differ are listed.</div>';
  const diffTable = differing.length > 0
    ? table(
        ['Host', 'Fact', ...comparison.sessions.map((_, i) => sessionLabel(comparison, i))],
        differing.map((row) => [row.role, row.label, ...row.values.map((value) => ({ text: escapeXml(value ?? 'not recorded'), className: row.differs ? 'differs' : undefined }))]),
        { textColumns: 2 + comparison.sessions.length, attributes: ' data-section="host-diff"' },
      )
    : '<div class="meta">The hosts did not differ in any recorded fact.</div>';
  return section(2, 'Hosts', `${intro}${diffTable}`, counted.join(''), ' data-section="hosts"');
}

/** `chapters`: HTML another capability made for this report (the server's profiles), placed before the hosts. */
export function renderReportHtml(comparison: Comparison, options: { generatedAt: Date; notes?: string; chapters?: readonly string[] }): string {
  const headline = buildHeadline(comparison);
  const notes = [options.notes?.trim(), ...comparison.sessions.map((s) => (s.notes.trim() ? `${s.name}: ${s.notes.trim()}` : ''))].filter((note): note is string => !!note);
  return [
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeXml(comparison.title)}</title><style>${STYLE}</style></head><body>`,
    firstPage(comparison, headline, notes, options.generatedAt),
    chartsChapter(comparison, headline),
    endpointsChapter(comparison),
    stepTables(comparison),
    repeatsSection(comparison, headline),
    ...(options.chapters ?? []),
    hostsSection(comparison),
    '</body></html>',
  ].join('\n');
}
