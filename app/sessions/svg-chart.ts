// Line charts as SVG text, for the printed comparison: vector output stays sharp at any print
// resolution and needs no canvas. Linear or log axes, series thinned to a few hundred points per
// line (each kept point the bucket's maximum, so a one-second stall still shows), lines broken
// where the data pauses (a lone point drawn as a dot), and labelled vertical markers (sweep steps). The legend is the report's
// HTML beside the chart, where text wraps instead of being cut.

export interface SvgSeries {
  label: string;
  color: string;
  /** Drawn dashed (p50 beside a solid p99 of the same colour). */
  dashed?: boolean;
  /** A dot on every point (few points: a sweep's steps, a distribution's percentiles). */
  dots?: boolean;
  xs: readonly number[];
  ys: ReadonlyArray<number | null>;
}

export interface SvgChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  xLog?: boolean;
  yLog?: boolean;
  width?: number;
  height?: number;
  /** Tick text for an x value (the distribution chart writes percentiles). */
  xTick?: (value: number) => string;
  yTick?: (value: number) => string;
  /** Ticks at exactly these x values (a sweep's connections or rates) instead of round ones. */
  xTicks?: readonly number[];
  maxPoints?: number;
  /** A line is broken where consecutive points lie further apart in x than this (a pause between steps). */
  breakOverX?: number;
  /** Vertical markers with a label at the top (where each sweep step began). */
  markers?: ReadonlyArray<{ x: number; label: string }>;
}

export const SERIES_COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#be185d', '#4d7c0f', '#1e293b', '#a16207'];

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Keeps at most `max` points: the highest y of each run of consecutive points. */
export function thin(xs: readonly number[], ys: ReadonlyArray<number | null>, max: number): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  const size = Math.max(1, Math.ceil(xs.length / max));
  for (let start = 0; start < xs.length; start += size) {
    let best: [number, number] | null = null;
    for (let i = start; i < Math.min(xs.length, start + size); i++) {
      const y = ys[i];
      if (y !== null && y !== undefined && Number.isFinite(y) && (best === null || y > best[1])) best = [xs[i]!, y];
    }
    if (best) points.push(best);
  }
  return points;
}

/** The series in pieces, cut where consecutive x lie more than `gap` apart (no cut without a gap). */
export function splitAtGaps(xs: readonly number[], ys: ReadonlyArray<number | null>, gap: number | undefined): Array<{ xs: number[]; ys: Array<number | null> }> {
  const pieces: Array<{ xs: number[]; ys: Array<number | null> }> = [];
  xs.forEach((x, i) => {
    if (i === 0 || (gap !== undefined && x - xs[i - 1]! > gap)) pieces.push({ xs: [], ys: [] });
    pieces.at(-1)!.xs.push(x);
    pieces.at(-1)!.ys.push(ys[i] ?? null);
  });
  return pieces;
}

function niceTicks(min: number, max: number, log: boolean): number[] {
  if (log) {
    const ticks: number[] = [];
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) ticks.push(10 ** e);
    return ticks;
  }
  const span = max - min || 1;
  const step = 10 ** Math.floor(Math.log10(span / 5));
  const unit = [1, 2, 5, 10].map((m) => m * step).find((s) => span / s <= 6) ?? step * 10;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / unit) * unit; v <= max + unit * 1e-9; v += unit) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

const defaultTick = (value: number) => (Math.abs(value) >= 1000 ? `${Number((value / 1000).toPrecision(3))}k` : String(Number(value.toPrecision(3))));

export function svgLineChart(series: readonly SvgSeries[], options: SvgChartOptions): string {
  const width = options.width ?? 720;
  const height = options.height ?? 260;
  // Marker labels sit in rows of their own between the title and the plot, never over the lines.
  const markerRows = Math.min(3, options.markers?.length ?? 0);
  const pad = { left: 60, right: 12, top: 26 + markerRows * 10, bottom: 44 };
  const maxPoints = options.maxPoints ?? 600;
  const lines = series.map((s) => ({
    ...s,
    // Split at pauses first, then thin each piece: thinning alone would bridge a pause.
    segments: splitAtGaps(s.xs, s.ys, options.breakOverX).map(({ xs, ys }) =>
      thin(xs, ys, Math.max(2, Math.ceil((maxPoints * xs.length) / Math.max(1, s.xs.length)))).filter(([x, y]) => (!options.xLog || x > 0) && (!options.yLog || y > 0)),
    ),
  }));
  const all = lines.flatMap((line) => line.segments.flat());
  const header = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" class="chart" role="img" aria-label="${escapeXml(options.title)}">`;
  const title = `<text x="${pad.left}" y="16" font-size="13" font-weight="600">${escapeXml(options.title)}</text>`;
  if (all.length === 0) return `${header}${title}<text x="${width / 2}" y="${height / 2}" text-anchor="middle" font-size="12">no data</text></svg>`;
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const xMin = Math.min(...xs);
  let xMax = Math.max(...xs);
  let [yMin, yMax] = [options.yLog ? Math.min(...ys) : 0, Math.max(...ys)];
  if (options.yLog) [yMin, yMax] = [10 ** Math.floor(Math.log10(yMin)), 10 ** Math.ceil(Math.log10(yMax))];
  if (xMax === xMin) xMax = xMin + 1;
  if (yMax === yMin) yMax = yMin + 1;
  const scale = (value: number, min: number, max: number, log: boolean | undefined) =>
    log ? (Math.log10(value) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : (value - min) / (max - min);
  const px = (x: number) => pad.left + scale(x, xMin, xMax, options.xLog) * (width - pad.left - pad.right);
  const py = (y: number) => height - pad.bottom - scale(y, yMin, yMax, options.yLog) * (height - pad.top - pad.bottom);
  const xTick = options.xTick ?? defaultTick;
  const yTick = options.yTick ?? defaultTick;
  const parts: string[] = [header, title];
  for (const tick of niceTicks(yMin, yMax, !!options.yLog)) {
    if (tick < yMin || tick > yMax) continue;
    parts.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${py(tick).toFixed(1)}" y2="${py(tick).toFixed(1)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${pad.left - 4}" y="${(py(tick) + 4).toFixed(1)}" font-size="10" text-anchor="end">${escapeXml(yTick(tick))}</text>`);
  }
  for (const tick of options.xTicks ?? niceTicks(xMin, xMax, !!options.xLog)) {
    if (tick < xMin || tick > xMax) continue;
    parts.push(`<text x="${px(tick).toFixed(1)}" y="${height - pad.bottom + 14}" font-size="10" text-anchor="middle">${escapeXml(xTick(tick))}</text>`);
  }
  parts.push(`<rect x="${pad.left}" y="${pad.top}" width="${width - pad.left - pad.right}" height="${height - pad.top - pad.bottom}" fill="none" stroke="#9ca3af"/>`);
  parts.push(`<text x="${(pad.left + width - pad.right) / 2}" y="${height - pad.bottom + 30}" font-size="11" text-anchor="middle">${escapeXml(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(12 ${(pad.top + height - pad.bottom) / 2}) rotate(-90)" font-size="11" text-anchor="middle">${escapeXml(options.yLabel)}</text>`);
  (options.markers ?? []).forEach((marker, i) => {
    if (marker.x < xMin || marker.x > xMax) return;
    const x = px(marker.x).toFixed(1);
    const labelY = 33 + (i % markerRows) * 10;
    parts.push(`<line x1="${x}" x2="${x}" y1="${labelY - 8}" y2="${height - pad.bottom}" stroke="#6b7280" stroke-dasharray="3 3"/>`);
    // Up to three rows of labels, so close steps' labels do not print over each other.
    parts.push(`<text x="${(px(marker.x) + 3).toFixed(1)}" y="${labelY}" font-size="9" fill="#374151">${escapeXml(marker.label)}</text>`);
  });
  for (const line of lines) {
    const d = line.segments
      .filter((segment) => segment.length > 0)
      .map((segment) => segment.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(''))
      .join('');
    if (!d) continue;
    parts.push(`<path data-series="${escapeXml(line.label)}" d="${d}" fill="none" stroke="${line.color}" stroke-width="1.4"${line.dashed ? ' stroke-dasharray="5 3"' : ''}/>`);
    // A piece of one point draws no line: it gets its dot (a one-second run, a step cut to one second).
    const dotted = line.dots ? line.segments.flat() : line.segments.filter((segment) => segment.length === 1).flat();
    for (const [x, y] of dotted) parts.push(`<circle data-series="${escapeXml(line.label)}" cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="2.2" fill="${line.color}"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
