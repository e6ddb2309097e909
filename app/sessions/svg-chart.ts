// Line charts as SVG text, for the printed comparison: vector output stays sharp at any print
// resolution and needs no canvas. Linear or log axes, a legend, and series thinned to a few hundred
// points per line (each kept point the bucket's maximum, so a one-second stall still shows).

export interface SvgSeries {
  label: string;
  color: string;
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
  maxPoints?: number;
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
  const pad = { left: 60, right: 12, top: 26, bottom: 58 };
  const lines = series.map((s) => ({ ...s, points: thin(s.xs, s.ys, options.maxPoints ?? 600).filter(([x, y]) => (!options.xLog || x > 0) && (!options.yLog || y > 0)) }));
  const all = lines.flatMap((line) => line.points);
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
  for (const tick of niceTicks(xMin, xMax, !!options.xLog)) {
    if (tick < xMin || tick > xMax) continue;
    parts.push(`<text x="${px(tick).toFixed(1)}" y="${height - pad.bottom + 14}" font-size="10" text-anchor="middle">${escapeXml(xTick(tick))}</text>`);
  }
  parts.push(`<rect x="${pad.left}" y="${pad.top}" width="${width - pad.left - pad.right}" height="${height - pad.top - pad.bottom}" fill="none" stroke="#9ca3af"/>`);
  parts.push(`<text x="${(pad.left + width - pad.right) / 2}" y="${height - pad.bottom + 30}" font-size="11" text-anchor="middle">${escapeXml(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(12 ${(pad.top + height - pad.bottom) / 2}) rotate(-90)" font-size="11" text-anchor="middle">${escapeXml(options.yLabel)}</text>`);
  for (const line of lines) {
    if (line.points.length === 0) continue;
    const d = line.points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join('');
    parts.push(`<path d="${d}" fill="none" stroke="${line.color}" stroke-width="1.4"/>`);
  }
  let legendX = pad.left;
  lines.forEach((line) => {
    const label = line.label.length > 40 ? `${line.label.slice(0, 39)}…` : line.label;
    parts.push(`<rect x="${legendX}" y="${height - 16}" width="10" height="10" fill="${line.color}"/><text x="${legendX + 14}" y="${height - 7}" font-size="10">${escapeXml(label)}</text>`);
    legendX += 24 + label.length * 5.5;
  });
  parts.push('</svg>');
  return parts.join('');
}
