// One interactive flame graph (SVG): the root at the bottom, each frame above its caller, widths by
// samples. A click zooms on a frame (its subtree spread over the width, its callers kept as full
// bars below); clicking the root, or Reset zoom, goes back. A search lights the matching frames and
// dims the rest. The same component draws a run's profile and the differential of two runs: the
// caller says how a frame is coloured and described.

import { useEffect, useMemo, useRef, useState } from 'react';
import { frameColor, layoutDepth, layoutFlame, shareText, type FlameNode } from '../../../../app/profiles/flame-graph.ts';
import { fitLabel } from '../../../../app/profiles/flame-svg.ts';

const DEFAULT_WIDTH = 1200;
const ROW = 17;
const MATCH_COLOR = 'hsl(280, 70%, 68%)';

export interface FlameGraphProps<N extends FlameNode> {
  root: N;
  testId: string;
  /** Frames whose name this accepts are lit; null: no search. */
  matches?: ((name: string) => boolean) | null;
  color?: (node: N) => string;
  /** What the status line says of the frame under the pointer. */
  describe?: (node: N, shareOfRoot: number) => string;
}

export function FlameGraph<N extends FlameNode>({ root, testId, matches = null, color, describe }: FlameGraphProps<N>) {
  // Kept with the tree they were made on: another profile starts unzoomed.
  const [zoomed, setZoomed] = useState<{ root: N; path: string[] }>({ root, path: [] });
  const zoom = useMemo(() => (zoomed.root === root ? zoomed.path : []), [zoomed, root]);
  const setZoom = (path: string[]) => setZoomed({ root, path });
  const [pointed, setHovered] = useState<{ node: N; share: number; root: N } | null>(null);
  const hovered = pointed?.root === root ? pointed : null;
  // Drawn in the box's own pixels, so labels are cut to what really fits.
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(200, Math.floor(element.clientWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Frames under a pixel are left out: they could be neither seen nor clicked.
  const rects = useMemo(() => layoutFlame(root, zoom, 1 / width), [root, zoom, width]);
  const depth = layoutDepth(rects);
  const height = depth * ROW;
  const fill = color ?? ((node: N) => frameColor(node.name));
  const say = describe ?? ((node: N, share: number) => `${node.name}: ${shareText(share)} of samples (${node.total} samples, ${node.self} in the frame itself)`);

  return (
    <div className="flame-graph" data-testid={testId} data-zoom={zoom.join(';')} data-frames={rects.length}>
      <div className="flame-bar">
        <button type="button" data-testid={`${testId}-reset`} disabled={zoom.length === 0} onClick={() => setZoom([])}>
          Reset zoom
        </button>
        <span className="muted small mono flame-status" data-testid={`${testId}-status`}>
          {hovered ? say(hovered.node, hovered.share) : zoom.length ? `Zoomed on ${zoom[zoom.length - 1]}` : 'Click a frame to zoom on it'}
        </span>
      </div>
      <div className="flame-scroll" ref={box}>
        <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label="Flame graph">
          {rects.map((rect) => {
            const x = rect.x * width;
            const w = rect.width * width;
            const y = height - (rect.depth + 1) * ROW;
            const lit = matches ? matches(rect.node.name) : false;
            const share = root.total > 0 ? rect.node.total / root.total : 0;
            const label = fitLabel(rect.node.name, w);
            return (
              <g
                key={rect.path.join(';')}
                className={`flame-frame${matches && !lit ? ' dim' : ''}`}
                data-testid={`${testId}-frame`}
                data-name={rect.node.name}
                data-path={rect.path.join(';')}
                data-lit={lit ? 'yes' : undefined}
                data-width={rect.width.toFixed(4)}
                onClick={() => setZoom(rect.path)}
                onMouseEnter={() => setHovered({ node: rect.node, share, root })}
                onMouseLeave={() => setHovered(null)}
              >
                <title>{say(rect.node, share)}</title>
                <rect x={x} y={y} width={Math.max(0.5, w - 0.6)} height={ROW - 1} fill={lit ? MATCH_COLOR : fill(rect.node)} />
                {label && (
                  <text x={x + 3} y={y + ROW - 5}>
                    {label}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
    </div>
  );
}
