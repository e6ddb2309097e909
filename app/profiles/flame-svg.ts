// A flame graph as SVG text, for the printed comparison: the root at the bottom, each frame above
// its caller, widths by samples (layoutFlame). Vector output stays sharp in print and needs no
// canvas or script; each frame carries its name and share as a tooltip for a PDF viewer.

import { frameColor, layoutDepth, layoutFlame, shareText, type FlameNode } from './flame-graph.ts';

export interface FlameSvgOptions {
  width?: number;
  rowHeight?: number;
  /** Rows beyond this many are cut (deep stacks would make the page a ribbon); the picture says so. */
  maxRows?: number;
  /** The frame's fill; by default a warm colour per name. */
  color?: (node: FlameNode) => string;
  /** The frame's tooltip; by default its name and share of the root. */
  tooltip?: (node: FlameNode, share: number) => string;
}

const CHAR_WIDTH = 6.2; // at font-size 10.5, a mean over code identifiers

function escapeText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** A label cut to fit `width` pixels ("…" where cut), or empty when not even two letters fit. */
export function fitLabel(name: string, width: number): string {
  const room = Math.floor((width - 6) / CHAR_WIDTH);
  if (room < 3) return '';
  return name.length <= room ? name : `${name.slice(0, room - 1)}…`;
}

export function flameSvg(root: FlameNode, options: FlameSvgOptions = {}): string {
  const width = options.width ?? 1000;
  const rowHeight = options.rowHeight ?? 16;
  const maxRows = options.maxRows ?? 40;
  const color = options.color ?? ((node: FlameNode) => frameColor(node.name));
  const tooltip = options.tooltip ?? ((node: FlameNode, share: number) => `${node.name} (${shareText(share)})`);
  // Half a pixel: anything thinner would not print.
  const rects = layoutFlame(root, [], 0.5 / width);
  const depth = layoutDepth(rects);
  const rows = Math.min(depth, maxRows);
  const cut = depth > maxRows;
  const height = rows * rowHeight + (cut ? rowHeight : 0);
  const parts: string[] = [];
  for (const rect of rects) {
    if (rect.depth >= rows) continue;
    const x = rect.x * width;
    const w = rect.width * width;
    const y = height - (rect.depth + 1) * rowHeight;
    const share = root.total > 0 ? rect.node.total / root.total : 0;
    const label = fitLabel(rect.node.name, w);
    parts.push(
      `<g><title>${escapeText(tooltip(rect.node, share))}</title><rect x="${x.toFixed(2)}" y="${y}" width="${Math.max(0.5, w - 0.5).toFixed(2)}" height="${rowHeight - 1}" fill="${color(rect.node)}"/>` +
        (label ? `<text x="${(x + 3).toFixed(2)}" y="${y + rowHeight - 4.5}">${escapeText(label)}</text>` : '') +
        '</g>',
    );
  }
  if (cut) parts.push(`<text x="3" y="${rowHeight - 4}" fill="#64748b">… ${depth - maxRows} deeper rows not drawn</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" class="flame" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="ui-monospace, monospace" font-size="10.5" fill="#1e293b">${parts.join('')}</svg>`;
}
