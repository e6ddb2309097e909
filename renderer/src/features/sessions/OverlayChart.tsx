// A static chart.js line chart overlaying one series per compared session, in the look of
// chart-setup.ts, on linear or log axes.

import { Chart, lineDataset, lineOptions, onAxis } from '../../common/chart-setup.ts';
import { useEffect, useRef } from 'react';

export interface OverlaySeries {
  label: string;
  color: string;
  points: Array<{ x: number; y: number | null }>;
}

export function OverlayChart(props: {
  id: string;
  title: string;
  series: OverlaySeries[];
  xTitle: string;
  yTitle: string;
  xLog?: boolean;
  yLog?: boolean;
  xTick?: (value: number) => string;
  showPoints?: boolean;
}) {
  const { id, title, series, xTitle, yTitle, xLog = false, yLog = false, xTick, showPoints = false } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvasRef.current) return;
    const chart = new Chart(canvasRef.current, {
      type: 'line',
      data: { datasets: series.map((s) => lineDataset(s, s.points.map((p) => ({ x: p.x, y: onAxis(p.y, yLog) })), { points: showPoints })) },
      options: lineOptions({ x: { title: xTitle, log: xLog, ...(xTick ? { tick: xTick } : {}) }, y: { title: yTitle, log: yLog }, legend: true }),
    });
    return () => chart.destroy();
  }, [series, xTitle, yTitle, xLog, yLog, xTick, showPoints]);

  return (
    <div className="chart-card" data-testid={`compare-chart-${id}`} data-series={series.length}>
      <div className="chart-title">{title}</div>
      <div className="chart-canvas" style={{ height: 220 }}>
        <canvas ref={canvasRef} aria-label={title} role="img" />
      </div>
    </div>
  );
}
