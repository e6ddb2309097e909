// One streaming chart of the Run page (see streaming-chart.ts for how it stays smooth on a long
// run). The container carries data-session / data-points / data-last-t / data-last-at of what it
// drew, for tests and for the benchmark of the lag from the agent's second boundary to the chart,
// and data-top / data-breaks / data-alone (the highest value drawn, the breaks at pauses, the lone
// values drawn as dots) for tests.

import { useEffect, useRef } from 'react';
import type { PointBuffer } from './use-live-run.ts';
import type { SeriesSpec, StepMarker } from '../../common/chart-series.ts';
import { StreamingChart } from '../../common/streaming-chart.ts';

export function LiveChart(props: {
  id: string;
  title: string;
  series: SeriesSpec[];
  buffer: PointBuffer;
  version: number;
  markers: StepMarker[];
  unit: string;
  logScale?: boolean;
  height?: number;
}) {
  const { id, title, series, buffer, version, markers, unit, logScale = false, height = 180 } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<StreamingChart | null>(null);

  useEffect(() => {
    if (!canvasRef.current) return;
    const chart = new StreamingChart(canvasRef.current, series, unit);
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [series, unit]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.show(buffer.points, buffer.generation, markers, logScale);
    const last = buffer.points[buffer.points.length - 1];
    const box = boxRef.current;
    if (box) {
      box.dataset.session = String(buffer.sessionId ?? '');
      box.dataset.points = String(buffer.points.length);
      box.dataset.lastT = last ? String(last.t) : '';
      box.dataset.lastAt = last ? String(last.at) : '';
      const drawn = chart.drawn();
      box.dataset.top = drawn.top === null ? '' : String(drawn.top);
      box.dataset.breaks = String(drawn.breaks);
      box.dataset.alone = String(drawn.alone);
    }
  }, [buffer, version, markers, logScale, series, unit]);

  return (
    <div className="chart-card" data-testid={`chart-${id}`} ref={boxRef}>
      <div className="chart-title">{title}</div>
      <div className="chart-canvas" style={{ height }}>
        <canvas ref={canvasRef} aria-label={title} role="img" />
      </div>
    </div>
  );
}
